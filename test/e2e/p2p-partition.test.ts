// A partition between two producing node processes, then the heal: the lighter side
// reorganizes onto the heavier chain and every transaction ends up confirmed on both sides
// (the ones orphaned by the reorg go back to the mempool and are mined later).
import t from 'tap'
import { NETWORKS } from '../../config/networks.ts'
import { cleanup, devWallet, generateWallet, transfer } from '../helpers/chain.ts'
import { spawnNode, waitUntil } from '../plugins/p2p/fixtures/processes.ts'
import type { NodeProcess } from '../plugins/p2p/fixtures/processes.ts'
import type { Transaction } from '../../core/chain/types.ts'

const params = NETWORKS.devnet

async function submit (n: NodeProcess, tx: Transaction): Promise<void> {
  const res = await n.request('POST', '/tx', tx)
  if (res.status !== 200) throw new Error(`${n.name} rejected ${tx.transaction_id}: ${JSON.stringify(res.json)}`)
}
async function confirmed (n: NodeProcess, tx: Transaction): Promise<boolean> {
  return ((await n.request('GET', `/tx/${tx.transaction_id}`)).json as { confirmed: boolean }).confirmed
}

t.test('both sides of a partition produce; after the heal one chain and every transaction remain', async (t) => {
  const running = new Set<NodeProcess>()
  const dirs = new Set<string>()
  t.teardown(async () => {
    for (const n of running) await n.stop()
    for (const d of dirs) cleanup(d)
  })
  const spawn = async (...args: Parameters<typeof spawnNode>): Promise<NodeProcess> => {
    const n = await spawnNode(...args)
    running.add(n)
    dirs.add(n.dataDir)
    return n
  }
  const stop = async (n: NodeProcess): Promise<void> => { await n.stop(); running.delete(n) }

  const a = await spawn({ name: 'a', produce: true, intervalMs: 300 })
  let b = await spawn({ name: 'b', produce: true, intervalMs: 300, peers: [a.address] })
  const dev = devWallet()
  const w2 = generateWallet()
  const fund = transfer(params, dev, w2.address, 50, 0)
  await submit(a, fund)
  await waitUntil('the funding to confirm on both', async () => await confirmed(a, fund) && await confirmed(b, fund))

  // Partition: b restarts without any peer (a never dialed b, so nothing reconnects them).
  // b produces slowly now, so a's side ends up heavier.
  await stop(b)
  b = await spawn({ name: 'b', dataDir: b.dataDir, p2pPort: b.p2pPort, produce: true, intervalMs: 1200 })
  await waitUntil('a to notice b left', async () => (await a.state()).peers.length === 0)
  const txA = transfer(params, dev, generateWallet().address, 1, 1)
  const txB = transfer(params, w2, generateWallet().address, 2, 0)
  await submit(a, txA)
  await submit(b, txB)
  await waitUntil('each side to confirm its own transaction', async () => await confirmed(a, txA) && await confirmed(b, txB))
  t.notOk(await confirmed(b, txA), 'txA is unknown on b\'s side')
  t.notOk(await confirmed(a, txB), 'txB is unknown on a\'s side')
  await waitUntil('a\'s side to be clearly heavier', async () => (await a.state()).height >= (await b.state()).height + 3)

  // Heal: b comes back with a as its peer.
  await stop(b)
  b = await spawn({ name: 'b', dataDir: b.dataDir, p2pPort: b.p2pPort, produce: true, intervalMs: 1200, peers: [a.address] })
  const healedB = b
  await waitUntil('every transaction confirmed on both sides', async () =>
    await confirmed(a, txA) && await confirmed(a, txB) && await confirmed(healedB, txA) && await confirmed(healedB, txB), 60_000)
  await waitUntil('one tip on both', async () => (await a.state()).hash === (await healedB.state()).hash)
  const messages = healedB.log.map((l) => { try { return (JSON.parse(l) as { msg?: string }).msg ?? '' } catch { return l } })
  t.ok(messages.includes('chain reorganized'), 'b reorganized onto a\'s chain')
  t.equal((await healedB.state()).sync_state, 'synced')
})
