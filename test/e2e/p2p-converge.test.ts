// Three real node processes on 127.0.0.1, two producing blocks, converge on one tip.
import t from 'tap'
import { spawnNode, waitUntil } from '../plugins/p2p/fixtures/processes.ts'
import type { NodeProcess } from '../plugins/p2p/fixtures/processes.ts'
import { cleanup } from '../helpers/chain.ts'

async function start (t: { teardown(fn: () => unknown): void }, ...args: Parameters<typeof spawnNode>): Promise<NodeProcess> {
  const node = await spawnNode(...args)
  t.teardown(async () => { await node.stop(); cleanup(node.dataDir) })
  return node
}

t.test('three nodes, two of them producing, converge on one tip', async (t) => {
  const a = await start(t, { name: 'a', produce: true, intervalMs: 400 })
  const b = await start(t, { name: 'b', produce: true, intervalMs: 400, peers: [a.address] })
  const c = await start(t, { name: 'c', peers: [a.address, b.address] })
  const nodes = [a, b, c]
  await waitUntil('every node to see two peers', async () => (await Promise.all(nodes.map((n) => n.state()))).every((s) => s.peers.length === 2))
  let tips: string[] = []
  await waitUntil('one tip at height >= 10 on all three', async () => {
    const states = await Promise.all(nodes.map((n) => n.state()))
    tips = states.map((s) => s.hash)
    return states.every((s) => s.height >= 10 && s.hash === tips[0])
  }, 60_000)
  const states = await Promise.all(nodes.map((n) => n.state()))
  t.ok(states[0]?.produced && states[1]?.produced, 'both producers produced blocks')
  t.equal(states[2]?.produced, 0, 'c only relays')
  for (const s of states) t.equal(s.sync_state, 'synced')
  const cPeers = states[2]?.peers ?? []
  t.same(cPeers.map((p) => p.address).sort(), [a.address, b.address].sort(), 'c lists a and b by host:port')
  t.ok(cPeers.every((p) => p.version === '2-devnet' && p.best_height >= 1 && p.peer_id.startsWith('12D3KooW')))
})
