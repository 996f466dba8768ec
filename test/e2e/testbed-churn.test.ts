// A node SIGKILLed while it syncs restarts on its data dir and catches up: a late node joins a
// mining testnet pair over a slow link (so its sync takes a while), is killed mid-sync, comes
// back, its link is freed, and it ends on the network's tip.
import t from 'tap'
import { runTestbedScenario, lastTips } from './fixtures/testbed-run.ts'

t.setTimeout(240_000)

t.test('a node SIGKILLed during sync restarts and catches up', async (t) => {
  const { recording: rec, figures: f } = await runTestbedScenario(t, {
    network: 'devnet',
    nodes: 3,
    // one miner: devnet's paced miners would tie at every height for ever
    miners: 1,
    topology: 'line',
    latencyMs: 20,
    jitterMs: 5,
    seed: 2701,
    durationSeconds: 40,
    settleSeconds: 60,
    late: [2],
    steps: [
      // each wallet to one node: the test judges convergence; consecutive nonces entering at
      // different nodes (held as orphans, never scored) are test/plugins/p2p/tx-orphans.test.ts's
      { at: 1, do: 'load', rate: 1, mix: { transfer: 1 }, entry: 'sticky' },
      // node 2's only link (1-2) is slow: its initial sync of the pair's chain takes seconds
      { at: 8, do: 'links', between: [[1, 2]], bandwidth: '25kB' },
      { at: 8, do: 'restart', node: 2 },
      { at: 9, do: 'kill', node: 2, whileSyncing: true },
      { at: 14, do: 'restart', node: 2 },
      { at: 18, do: 'links', between: [[1, 2]], bandwidth: null }
    ]
  })
  const node2 = rec.nodes[2]?.events ?? []
  const kill = rec.marks.find((m) => m.kind === 'kill')?.t ?? 0
  const netHeightAtKill = Math.max(...rec.nodes.slice(0, 2).flatMap((n) => n.events.filter((e) => e.type === 'block_connected' && e.t < kill).map((e) => e.type === 'block_connected' ? e.height : 0)))
  const node2HeightAtKill = Math.max(0, ...node2.filter((e) => e.type === 'block_connected' && e.t < kill).map((e) => e.type === 'block_connected' ? e.height : 0))
  t.match(rec.marks.find((m) => m.kind === 'kill')?.label, /while it syncs/, 'node 2 was killed once it said it was syncing')
  t.ok(node2HeightAtKill < netHeightAtKill, `node 2 was behind when killed (height ${node2HeightAtKill} of ${netHeightAtKill})`)
  t.same(rec.nodes[2]?.exits.map((e) => e.signal), ['SIGKILL'], 'node 2 was SIGKILLed once')
  t.ok(node2.some((e) => e.type === 'block_connected' && e.syncing && e.t > kill), 'after the restart node 2 synced the chain')
  const finalTip = rec.finalChain.at(-1)?.hash
  t.same(lastTips(rec), rec.nodes.map(() => finalTip), 'node 2 caught up: every node ends on the tip')
  t.equal(f.crashes, 0, 'no exit the test bed did not cause')
  t.equal(f.txs.lost, 0, 'no accepted transaction lost')
})
