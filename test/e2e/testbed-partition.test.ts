// The test bed's partition scenario in small: four devnet nodes in a ring, a miner on each side
// of the cut. Both sides mine apart; after the heal every node is on the most-work tip within
// three block intervals, and no transaction any node accepted is lost. Devnet: its blocks come
// every ~2 s whatever the machine (paced, fixed target), so both sides surely mine while apart;
// testnet's target is tuned to a whole unloaded 2-core machine (issue 28), far more than one
// thread per miner on a shared CI box gets.
import t from 'tap'
import { runTestbedScenario, lastTips } from './fixtures/testbed-run.ts'

t.setTimeout(240_000)

t.test('after a partition with miners on both sides heals, one tip and no accepted transaction lost', async (t) => {
  const { recording: rec, figures: f } = await runTestbedScenario(t, {
    network: 'devnet',
    nodes: 4,
    miners: 2,
    topology: 'ring',
    latencyMs: 20,
    jitterMs: 5,
    seed: 27,
    durationSeconds: 55,
    settleSeconds: 60,
    steps: [
      // each wallet to one node: the test judges convergence; consecutive nonces entering at
      // different nodes (held as orphans, never scored) are test/plugins/p2p/tx-orphans.test.ts's
      { at: 1, do: 'load', rate: 1, mix: { transfer: 0.7, chat: 0.3 }, entry: 'sticky' },
      // ring 0-1-2-3-0: [0,3] | [1,2] cuts 0-1 and 2-3; miner 0 on one side, miner 1 on the other
      { at: 5, do: 'partition', groups: [[0, 3], [1, 2]] },
      // devnet's paced miners tie at every height: miner 1 stops first, so miner 0's side is
      // heavier when the partition heals, and one miner mines on
      { at: 38, do: 'mining', nodes: [1], on: false },
      { at: 45, do: 'heal' }
    ]
  })
  const partition = rec.marks.find((m) => m.kind === 'partition')?.t ?? 0
  const heal = rec.marks.find((m) => m.kind === 'heal')?.t ?? 0
  const minedApart = (miner: number): number => rec.nodes[miner]?.events.filter((e) => e.type === 'block_mined' && e.t > partition && e.t < heal).length ?? 0
  t.ok(minedApart(0) > 0 && minedApart(1) > 0, `both sides mined while apart (${minedApart(0)} and ${minedApart(1)} blocks)`)

  // a block interval: the target, or the run's mean when the loaded machine made it longer
  const intervalMs = Math.max(rec.targetSeconds, f.intervals.meanSeconds ?? 0) * 1000
  const healed = f.heals[0]?.ms
  t.not(healed, null, 'the nodes reached one tip after the heal')
  t.ok(healed !== null && healed !== undefined && healed <= 3 * intervalMs, `one tip within three block intervals of the heal (${healed} ms)`)
  const finalTip = rec.finalChain.at(-1)?.hash
  t.same(lastTips(rec), rec.nodes.map(() => finalTip), 'every node ends on the most-work chain\'s tip')

  t.ok(f.txs.accepted > 0, `transactions were accepted (${f.txs.accepted})`)
  t.equal(f.txs.lost, 0, `no accepted transaction lost (${JSON.stringify(f.txs.lostIds)})`)
  t.equal(f.txs.confirmedTwice, 0, 'none confirmed twice')
  t.equal(f.crashes, 0, 'no node crashed')
  t.equal(f.nodes.reduce((s, n) => s + n.bypassConnections, 0), 0, 'every connection went through a relay')
})
