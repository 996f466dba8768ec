// A late joiner syncs while the network mines: a third node starts after the mining pair has a
// chain, downloads it while new blocks keep coming, and ends on the network's tip, with the
// blocks mined after it caught up reaching it by gossip.
import t from 'tap'
import { runTestbedScenario, lastTips } from './fixtures/testbed-run.ts'

t.setTimeout(240_000)

t.test('a late joiner syncs while the network mines', async (t) => {
  const { recording: rec, figures: f } = await runTestbedScenario(t, {
    network: 'devnet',
    nodes: 3,
    // one miner: devnet's paced miners would tie at every height for ever
    miners: 1,
    topology: 'ring',
    latencyMs: 20,
    jitterMs: 5,
    seed: 2702,
    durationSeconds: 45,
    settleSeconds: 60,
    late: [2],
    steps: [
      // each wallet to one node: the test judges convergence; consecutive nonces entering at
      // different nodes (held as orphans, never scored) are test/plugins/p2p/tx-orphans.test.ts's
      { at: 1, do: 'load', rate: 1, mix: { transfer: 0.5, chat: 0.5 }, entry: 'sticky' },
      { at: 12, do: 'restart', node: 2 }
    ]
  })
  const joined = rec.marks.find((m) => m.kind === 'restart')?.t ?? 0
  const node2 = rec.nodes[2]?.events ?? []
  const heightAtJoin = Math.max(...rec.nodes.slice(0, 2).flatMap((n) => n.events.flatMap((e) => e.type === 'block_connected' && e.t < joined ? [e.height] : [])))
  t.ok(heightAtJoin > 0, `the network had a chain when node 2 joined (height ${heightAtJoin})`)
  t.ok(node2.some((e) => e.type === 'block_connected' && e.syncing), 'node 2 downloaded the chain by sync')
  const minedAfterJoin = rec.nodes.slice(0, 2).flatMap((n) => n.events.filter((e) => e.type === 'block_mined' && e.t > joined))
  t.ok(minedAfterJoin.length > 0, `the network kept mining after node 2 joined (${minedAfterJoin.length} blocks)`)
  t.ok(node2.some((e) => e.type === 'block_seen' && e.t > joined), 'node 2 received new blocks by gossip once it was in')
  const finalTip = rec.finalChain.at(-1)?.hash
  t.same(lastTips(rec), rec.nodes.map(() => finalTip), 'every node ends on the tip')
  t.equal(f.crashes, 0, 'no node crashed')
  t.equal(f.txs.lost, 0, 'no accepted transaction lost')
})
