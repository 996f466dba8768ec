import t from 'tap'
import { startTestNode } from '../../helpers/node.ts'
import { until } from './helpers.ts'
import { DEVNET_BEACON } from '../../../config/entropy-sources.ts'
import { verifyBeacon } from '../../../core/entropy/beacon-verify.ts'

// Offline: no relay is reachable, the node signs the devnet beacon itself, and the miner's
// blocks carry beacon evidence that verifies under the published devnet key.
t.test('a devnet node with no network mines verifiable blocks on the devnet beacon', async (t) => {
  const node = await startTestNode({
    plugins: ['storage', 'consensus', 'http', 'entropy-aggregator', 'miner'],
    config: { 'entropy-aggregator': { port: 0, beacons: { 'beacon-default': { urls: ['http://127.0.0.1:9'] } } }, miner: { threads: 1 } }
  })
  t.teardown(() => node.stop())
  const chain = node.resolve('chain')
  await until(() => chain.tip().height >= 2, 30_000, 'two mined blocks')
  const block = await chain.getBlockByHeight(2)
  const env = block?.quantum_signature?.qrng_attestation
  t.equal(env?.version, 2)
  t.equal(env?.source, 'aggregator:beacon-devnet+self-hosted')
  t.equal(env?.beacons.length, 1)
  const evidence = env!.beacons[0]!
  t.equal(evidence.source, 'beacon-devnet')
  t.doesNotThrow(() => verifyBeacon(DEVNET_BEACON.pin, evidence), 'the quoted round verifies under the published key')
  const roundTime = DEVNET_BEACON.pin.genesisTime + (evidence.round - 1) * DEVNET_BEACON.pin.period
  t.ok(roundTime <= block!.timestamp + 5 && roundTime >= block!.timestamp - 60, 'the round lies in the block\'s window')
  t.equal(node.resolve('miner').status().halted_reason, null)
  t.match(node.resolve('entropy').status(), { reachable: true, source: 'aggregator:beacon-devnet+self-hosted' })
})
