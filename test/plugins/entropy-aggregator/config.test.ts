import t from 'tap'
import { planSources, configSchema } from '../../../plugins/entropy-aggregator/config.ts'
import { NETWORKS } from '../../../config/networks.ts'
import { ConfigError, validateSection } from '../../../core/kernel/config.ts'

t.test('defaults: testnet mines offline on self-hosted alone, devnet on its own beacon; mainnet needs both beacons', async (t) => {
  t.same(planSources(null, null, NETWORKS.testnet), { sources: ['beacon-default', 'self-hosted'], minQuorum: 1 }, 'testnet')
  t.same(planSources(null, null, NETWORKS.devnet), { sources: ['beacon-devnet', 'self-hosted'], minQuorum: 2 }, 'devnet: the beacon is always part of the mix')
  t.same(planSources(null, null, NETWORKS.mainnet), { sources: ['beacon-default', 'beacon-fastnet'], minQuorum: 2 })
  t.same(planSources(['beacon-default', 'beacon-fastnet'], null, NETWORKS.testnet), { sources: ['beacon-default', 'beacon-fastnet'], minQuorum: 2 }, 'no self-hosted: the reference quorum of 2')
  t.same(planSources(['self-hosted'], null, NETWORKS.testnet), { sources: ['self-hosted'], minQuorum: 1 })
})

t.test('self-hosted on mainnet is refused with a clear error', async (t) => {
  const err = (() => { try { planSources(['beacon-default', 'self-hosted'], 2, NETWORKS.mainnet) } catch (e) { return e } })()
  t.type(err, ConfigError)
  t.match((err as Error).message, 'invalid config: "entropy-aggregator.sources" \'self-hosted\' is not in the mainnet trust list (self-hosted is accepted by the testnet and devnet trust lists only')
})

t.test('a composition without beacon evidence where the chain requires it is a config error', async (t) => {
  t.throws(() => planSources(['beacon-devnet', 'self-hosted'], 1, NETWORKS.devnet), /"entropy-aggregator.minQuorum" would let the aggregator report 'aggregator:self-hosted' without beacon evidence, which the devnet chain requires/)
  t.throws(() => planSources(['self-hosted'], null, NETWORKS.devnet), /without beacon evidence/)
  t.throws(() => planSources(['beacon-devnet'], null, NETWORKS.testnet), /'beacon-devnet' is not in the testnet trust list/)
  t.same(planSources(['beacon-devnet'], null, NETWORKS.devnet), { sources: ['beacon-devnet'], minQuorum: 1 })
})

t.test('a quorum above the source count, or a composition the network refuses, is a config error', async (t) => {
  t.throws(() => planSources(['self-hosted'], 2, NETWORKS.testnet), /"entropy-aggregator.minQuorum" is 2 but only 1 source\(s\) are configured/)
  // mainnet with one beacon and quorum 1 would report aggregator:beacon-default alone: trusted
  t.same(planSources(['beacon-default', 'beacon-fastnet'], 1, NETWORKS.mainnet).minQuorum, 1)
  const narrow = { ...NETWORKS.mainnet, trustedSources: ['beacon-default', 'beacon-fastnet', 'aggregator:beacon-default+beacon-fastnet'] }
  t.throws(() => planSources(['beacon-default', 'beacon-fastnet'], 1, narrow), /would report 'aggregator:beacon-default', which the mainnet trust list does not accept/)
  t.same(planSources(['beacon-default', 'beacon-fastnet'], 2, narrow).minQuorum, 2)
})

t.test('the schema applies the documented defaults and names bad keys', async (t) => {
  const c = validateSection('entropy-aggregator', configSchema, {})
  t.match(c, {
    host: '127.0.0.1',
    port: 8420,
    url: null,
    sources: null,
    minQuorum: null,
    poolCapacity: 65536,
    refillThreshold: 0.5,
    refillBatchBytes: 32768,
    fetchTimeoutMs: 2000,
    selfHosted: { device: 'auto', hwrngPath: '/dev/hwrng', url: null },
    beacons: {}
  })
  t.throws(() => validateSection('entropy-aggregator', configSchema, { poolCapacity: 70000 }), /"entropy-aggregator.poolCapacity" must be <= 65536/)
  t.throws(() => validateSection('entropy-aggregator', configSchema, { sources: ['vendor-server-v0'] }), /"entropy-aggregator.sources.0" must be one of/)
  t.throws(() => validateSection('entropy-aggregator', configSchema, { sources: ['self-hosted', 'self-hosted'] }), /entropy-aggregator.sources/)
  t.throws(() => validateSection('entropy-aggregator', configSchema, { url: 'ftp://x' }), /"entropy-aggregator.url"/)
  t.throws(() => validateSection('entropy-aggregator', configSchema, { beacons: { 'beacon-default': { scheme: 'nope' } } }), /beacons.beacon-default.scheme" must be one of/)
  t.throws(() => validateSection('entropy-aggregator', configSchema, { typo: 1 }), /unknown key "entropy-aggregator.typo"/)
})
