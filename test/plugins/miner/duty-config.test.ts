// miner.duty (--mine-duty) in a config file: an integer percent from 1 to 100, and miner.niceness
// 0-19, checked by the miner's config schema before the node starts (the flag's own check is in
// test/core/cli.test.ts).
import t from 'tap'
import { startTestNode } from '../../helpers/node.ts'

const plugins = ['storage', 'consensus', 'http', 'entropy-aggregator', 'miner']

t.test('a duty outside 1-100 or not an integer stops the start with a config error', async (t) => {
  for (const duty of [0, 101, 12.5, '50']) {
    await t.rejects(startTestNode({ plugins, start: false, config: { miner: { duty } } }), { message: /"miner\.duty"/ }, JSON.stringify(duty))
  }
})

t.test('the threads\' niceness (config only) is 0-19', async (t) => {
  for (const niceness of [-1, 20, 1.5]) {
    await t.rejects(startTestNode({ plugins, start: false, config: { miner: { niceness } } }), { message: /"miner\.niceness"/ }, JSON.stringify(niceness))
  }
})

t.test('a duty and a niceness in range are accepted', async (t) => {
  const node = await startTestNode({ plugins, start: false, config: { miner: { duty: 25, niceness: 0, threads: 1 } } })
  t.teardown(() => node.stop())
  t.equal(node.resolve('miner').status().enabled, true)
})
