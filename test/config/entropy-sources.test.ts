// The source registry and aggregator compositions (SPEC 2.8).
import t from 'tap'
import { ENTROPY_SOURCE_REGISTRY, DEFAULT_SOURCE_ID, findSource, sourceComponents, aggregatorId, isRegisteredSource, aggregatorCompositions } from '../../config/entropy-sources.ts'
import type { EntropySourceEntry } from '../../config/entropy-sources.ts'

t.test('the registry holds the SPEC ids with their status', async (t) => {
  t.same(ENTROPY_SOURCE_REGISTRY.map((s) => [s.id, s.status]), [
    ['self-hosted', 'testnet'],
    ['beacon-default', 'active'],
    ['beacon-fastnet', 'active'],
    ['beacon-devnet', 'devnet'],
    ['hardware-qrng-v1', 'planned'],
    ['vendor-server-v0', 'planned']
  ])
  t.equal(DEFAULT_SOURCE_ID, 'self-hosted')
  t.equal(findSource('beacon-fastnet')?.status, 'active')
  t.equal(findSource('nope'), undefined)
})

t.test('components and canonical aggregator ids', async (t) => {
  t.same(sourceComponents('beacon-default'), ['beacon-default'])
  t.same(sourceComponents('aggregator:b+a+c'), ['b', 'a', 'c'])
  t.equal(aggregatorId(['self-hosted', 'beacon-default']), 'aggregator:beacon-default+self-hosted')
  t.equal(aggregatorId(['beacon-default', 'self-hosted']), 'aggregator:beacon-default+self-hosted', 'order does not matter')
})

t.test('registered: atomic or aggregator with every component registered, no repeats', async (t) => {
  for (const id of ['self-hosted', 'hardware-qrng-v1', 'aggregator:beacon-default', 'aggregator:self-hosted+beacon-fastnet', 'aggregator:beacon-fastnet+self-hosted']) {
    t.ok(isRegisteredSource(id), id)
  }
  for (const id of ['', 'aggregator:', 'aggregator:x', 'aggregator:beacon-default+x', 'aggregator:beacon-default+beacon-default', 'aggregator:+beacon-default', 'beacon-default+self-hosted']) {
    t.notOk(isRegisteredSource(id), JSON.stringify(id))
  }
  const registry: EntropySourceEntry[] = [{ id: 'only-one', status: 'active', description: 'test', publicKey: null }]
  t.ok(isRegisteredSource('only-one', registry), 'an injected registry is used')
  t.notOk(isRegisteredSource('beacon-default', registry))
  t.equal(findSource('only-one', registry)?.id, 'only-one')
})

t.test('aggregator compositions: every non-empty subset, canonical', async (t) => {
  const all = aggregatorCompositions(['c', 'a', 'b'])
  t.equal(all.length, 7)
  t.equal(new Set(all).size, 7)
  t.ok(all.includes('aggregator:a+b+c'))
  t.ok(all.includes('aggregator:a'))
  t.ok(all.every((id) => id === aggregatorId(sourceComponents(id))), 'each in canonical form')
})
