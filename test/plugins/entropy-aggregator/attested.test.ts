// The attested answer (GET /api/random/attested) read as hostile input, and what a block may
// claim for bytes whose evidence is missing.
import t from 'tap'
import { parseAttested } from '../../../plugins/entropy-aggregator/rest-client.ts'
import { claimable } from '../../../plugins/entropy-aggregator/remote-provider.ts'

const evidence = { source: 'beacon-devnet', round: 7, signature: 'ab'.repeat(48), randomness: 'cd'.repeat(32) }

t.test('parseAttested: exactly n bytes and well-formed evidence, or an error', async (t) => {
  const ok = parseAttested({ n: 2, hex: 'beef', source: 'beacon-devnet', device: 'd', beacons: [evidence] }, 2)
  t.same(Array.from(ok.bytes), [0xbe, 0xef])
  t.same(ok.beacons, [evidence])
  const bad: Array<[string, unknown, RegExp]> = [
    ['short hex', { hex: 'be', source: 's', beacons: [] }, /exactly 2 bytes/],
    ['upper-case hex', { hex: 'BEEF', source: 's', beacons: [] }, /lowercase hex/],
    ['no source', { hex: 'beef', beacons: [] }, /needs hex and source/],
    ['beacons not a list', { hex: 'beef', source: 's', beacons: {} }, /beacons list/],
    ['too many beacons', { hex: 'beef', source: 's', beacons: Array(9).fill(evidence) }, /at most 8/],
    ['round as text', { hex: 'beef', source: 's', beacons: [{ ...evidence, round: '7' }] }, /beacons\[0\] is not beacon evidence/],
    ['not an object', null, /needs hex and source/]
  ]
  for (const [name, body, why] of bad) t.throws(() => parseAttested(body, 2), why, name)
})

t.test('claimable: beacon components without evidence are dropped from the source id', async (t) => {
  t.equal(claimable('aggregator:beacon-devnet+self-hosted', [evidence]), 'aggregator:beacon-devnet+self-hosted')
  t.equal(claimable('aggregator:beacon-devnet+self-hosted', []), 'aggregator:self-hosted')
  t.equal(claimable('beacon-default', []), null, 'a lone beacon without its round claims nothing')
  t.equal(claimable('self-hosted', []), 'self-hosted')
  t.equal(claimable('beacon-devnet', [evidence]), 'beacon-devnet')
})
