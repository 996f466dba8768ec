import t from 'tap'
import { startTestNode } from '../../helpers/node.ts'
import { until } from './helpers.ts'

// Offline: the beacon's relay refuses connections, the self-hosted source alone meets the
// devnet quorum, and the miner's blocks carry attestations the chain accepts.
t.test('a devnet node with no reachable beacon mines on the aggregator', async (t) => {
  const node = await startTestNode({
    plugins: ['storage', 'chain', 'entropy-aggregator', 'miner'],
    config: { 'entropy-aggregator': { port: 0, beacons: { 'beacon-default': { urls: ['http://127.0.0.1:9'] } } }, miner: { threads: 1 } }
  })
  t.teardown(() => node.stop())
  const chain = node.resolve('chain')
  await until(() => chain.tip().height >= 2, 30_000, 'two mined blocks')
  const block = await chain.getBlockByHeight(2)
  const env = block?.quantum_signature?.qrng_attestation
  t.equal(env?.source, 'aggregator:self-hosted')
  t.ok(env !== undefined && env.health.monobit_ratio >= 0.4 && env.health.monobit_ratio <= 0.6)
  t.ok(env !== undefined && env.health.fano_factor >= 0.5 && env.health.fano_factor <= 1.5)
  t.equal(node.resolve('miner').status().halted_reason, null)
  t.match(node.resolve('entropy').status(), { reachable: true, source: 'aggregator:self-hosted' })
})
