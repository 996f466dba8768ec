// Mining waits until synced: the gate's every branch with a fake clock and peer list, then
// real in-process nodes: a miner restarted on its stale two-block tip, with --peer pointing at
// a node 20 blocks ahead on another branch, mines nothing until it has those 20 blocks (without
// the gate it mines on the stale tip at once); and a miner whose peer is down mines once the
// bound has passed.
import t from 'tap'
import { SyncGate } from '../../../plugins/miner/sync-gate.ts'
import type { PeerInfo, PeerService, SyncState } from '../../../core/kernel/services.ts'
import { startTestNode } from '../../helpers/node.ts'
import type { TestNode } from '../../helpers/node.ts'
import { extend, params, startP2pNode, waitFor } from '../p2p/helpers.ts'
import { freePort } from '../../helpers/ports.ts'
import { cleanup, tmpDir } from '../../helpers/chain.ts'

function fakePeers (bootstrap = 1): PeerService & { list: PeerInfo[]; state: SyncState } {
  const p = {
    list: [] as PeerInfo[],
    state: 'idle' as SyncState,
    peers: () => p.list,
    syncState: () => p.state,
    bootstrapCount: () => bootstrap
  }
  return p
}
const peer = (best: number): PeerInfo => ({ peer_id: 'p', address: '127.0.0.1:1', version: 'x', best_height: best, connected_at: 0 })

t.test('the gate, branch by branch', async (t) => {
  let now = 0
  let height = 0
  const peers = fakePeers()
  const gate = new SyncGate({ peers, immediate: false, height: () => height, waitMs: 30_000, now: () => now })
  t.match(gate.check(), { open: false, reason: 'waiting for peers before mining (initial sync)' })
  now = 29_999
  t.match(gate.check(), { open: false }, 'still inside the bound')
  peers.list = [peer(20)]
  peers.state = 'syncing'
  t.match(gate.check(), { open: false, reason: 'syncing with peers' })
  peers.state = 'synced'
  now = 60_000
  t.match(gate.check(), { open: false, reason: 'behind peers (height 0 of 20): waiting to sync before mining' }, 'a peer arrived: the no-peer bound restarts')
  height = 20
  t.match(gate.check(), { open: true, why: 'synced with 1 peer' })
  t.equal(gate.check(), null, 'open for good')
  height = 0
  peers.state = 'syncing'
  t.equal(gate.check(), null, 'later sync rounds are the miner\'s own check, not the gate\'s')

  const lonely = new SyncGate({ peers: fakePeers(), immediate: false, height: () => 0, waitMs: 30_000, now: () => now })
  now += 30_000
  t.match(lonely.check(), { open: true, why: /no peer reachable for 30 s/ })

  const liar = fakePeers()
  liar.list = [peer(1_000_000)]
  liar.state = 'synced'
  const lied = new SyncGate({ peers: liar, immediate: false, height: () => 5, waitMs: 30_000, now: () => now })
  t.match(lied.check(), { open: false })
  now += 30_000
  t.match(lied.check(), { open: true, why: /peers report height 1000000 but sent no blocks for 30 s/ }, 'a claimed height cannot stop mining for ever')

  t.match(new SyncGate({ peers: fakePeers(0), immediate: false, height: () => 0, waitMs: 30_000 }).check(), { open: true, why: /no bootstrap peers/ })
  t.match(new SyncGate({ peers: undefined, immediate: false, height: () => 0, waitMs: 30_000 }).check(), { open: true, why: /no p2p/ })
  t.match(new SyncGate({ peers: fakePeers(), immediate: true, height: () => 0, waitMs: 30_000 }).check(), { open: true, why: /no sync wait/ })
})

async function startMiner (peers: string[], syncWaitSeconds: number, dataDir?: string): Promise<{ node: TestNode; mined: number[] }> {
  const node = await startTestNode({
    plugins: ['storage', 'consensus', 'http', 'entropy-aggregator', 'miner', 'p2p'],
    params,
    start: false,
    dataDir,
    keepData: dataDir !== undefined,
    config: {
      'entropy-aggregator': { port: 0, beacons: { 'beacon-default': { urls: ['http://127.0.0.1:9'] } } },
      miner: { threads: 1, syncWaitSeconds },
      p2p: { host: '127.0.0.1', port: 0, peers, statusIntervalMs: 500, redialIntervalMs: 200, progressIntervalMs: 1000, requestTimeoutMs: 5000 }
    }
  })
  const mined: number[] = []
  node.kernel.hooks.blockMined.tap('test', (b) => { mined.push(b.height) })
  await node.kernel.start()
  return { node, mined }
}

t.test('a restarted miner behind its peer mines only once it has the peer\'s chain', async (t) => {
  // first life: alone (no --peer: it mines at once), two blocks of its own, then stopped
  const dataDir = tmpDir('ledger-restart-')
  t.teardown(() => cleanup(dataDir))
  const first = await startMiner([], 30, dataDir)
  await waitFor('two blocks in its first life', () => first.node.resolve('chain').tip().height >= 2, 60_000)
  await first.node.stop()
  // meanwhile the network went on: a peer with 20 blocks of another branch
  const ahead = await startP2pNode()
  t.teardown(() => ahead.stop())
  await extend(ahead.chain, 20)
  const { node, mined } = await startMiner([ahead.address], 30, dataDir)
  t.ok(node.resolve('chain').tip().height >= 2, 'restarted on its stale tip')
  t.teardown(() => node.stop())
  const chain = node.resolve('chain')
  await waitFor('the restarted miner to mine a block of its own', () => mined.length >= 1, 60_000)
  t.ok(mined.every((h) => h > 20), `every block it mined is above the peer's height 20 (mined at ${mined.join(', ')})`)
  t.equal(chain.hashAtHeight(20), ahead.chain.hashAtHeight(20), 'it took the peer\'s chain')
})

t.test('a miner whose bootstrap peer is down mines after the bound', async (t) => {
  const dead = `127.0.0.1:${await freePort()}`
  const { node, mined } = await startMiner([dead], 1)
  t.teardown(() => node.stop())
  const miner = node.resolve('miner')
  await waitFor('the miner to say why it waits', () => miner.status().halted_reason === 'waiting for peers before mining (initial sync)' || mined.length > 0, 10_000)
  t.equal(mined.length, 0, 'nothing mined while waiting')
  await waitFor('a block after the 1 s bound', () => mined.length >= 1, 60_000)
  t.equal(mined[0], 1, 'mined on its own chain')
})
