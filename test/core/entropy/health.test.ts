import t from 'tap'
import { seededBytes } from '../../helpers/random.ts'
import { monobitRatio, fanoFactor, healthSnapshot, healthViolation } from '../../../core/entropy/health.ts'
import { NETWORKS } from '../../../config/networks.ts'

const bounds = NETWORKS.testnet.healthBounds

t.test('monobit ratio counts one bits', async (t) => {
  t.equal(monobitRatio(Uint8Array.of(0xff, 0x00)), 0.5)
  t.equal(monobitRatio(Uint8Array.of(0x01)), 0.125)
  t.equal(monobitRatio(Uint8Array.of(0xff, 0xff)), 1)
  t.equal(monobitRatio(new Uint8Array(0)), 0)
})

t.test('Fano factor: hand-computed 2-bit window counts', async (t) => {
  // 0x1b = 00 01 10 11: window counts 2,1,1,0 (from the low bits): mean 1, variance 2/3, p 0.5
  t.equal(fanoFactor(Uint8Array.of(0x1b)), (2 / 3) / (1 * 0.5))
  // 0x33 = 00 11 00 11: counts 2,0,2,0: mean 1, variance 4/3, p 0.5
  t.equal(fanoFactor(Uint8Array.of(0x33)), (4 / 3) / 0.5)
})

t.test('uniform random bytes land inside the chain bounds: 64-byte draws', async (t) => {
  const samples = 20_000
  const draws64 = seededBytes('health: 64-byte draws', samples * 64)
  let fanoOut = 0
  let monobitOut = 0
  let fanoSum = 0
  let monoSum = 0
  let fanoMin = Infinity
  let fanoMax = -Infinity
  for (let i = 0; i < samples; i++) {
    const s = healthSnapshot(draws64.subarray(i * 64, (i + 1) * 64))
    if (s.fano_factor < bounds.fano[0] || s.fano_factor > bounds.fano[1]) fanoOut++
    if (s.monobit_ratio < bounds.monobit[0] || s.monobit_ratio > bounds.monobit[1]) monobitOut++
    fanoSum += s.fano_factor
    monoSum += s.monobit_ratio
    fanoMin = Math.min(fanoMin, s.fano_factor)
    fanoMax = Math.max(fanoMax, s.fano_factor)
  }
  t.equal(fanoOut, 0, 'no random 64-byte sample has its Fano factor out of bounds')
  // 512 fair bits fall outside [0.40, 0.60] with probability 5.0e-6 (exact binomial tail), a
  // property of the chain's bounds at this size: 0.1 expected here, 4 or more has p ≈ 4e-6
  t.ok(monobitOut <= 3, `${monobitOut} of ${samples} monobit ratios out of bounds`)
  t.ok(Math.abs(fanoSum / samples - 1) < 0.01, `mean Fano ${fanoSum / samples} ≈ 1.0`)
  t.ok(Math.abs(monoSum / samples - 0.5) < 0.002, `mean monobit ${monoSum / samples} ≈ 0.5`)
  // the spread that makes a false rejection negligible: σ ≈ 0.063, bounds ±0.5 away
  t.ok(fanoMin > 0.6 && fanoMax < 1.4, `Fano range [${fanoMin}, ${fanoMax}] well inside [0.5, 1.5]`)
})

t.test('uniform random bytes land near 1.0 and 0.5: 32 KB batches', async (t) => {
  for (let i = 0; i < 40; i++) {
    const s = healthSnapshot(seededBytes(`health: 32 KB batch ${i}`, 32 * 1024))
    t.equal(healthViolation(s, bounds), null)
    t.ok(Math.abs(s.fano_factor - 1) < 0.02 && Math.abs(s.monobit_ratio - 0.5) < 0.01, `sample ${i}: ${JSON.stringify(s)}`)
  }
})

t.test('degenerate data falls outside the bounds', async (t) => {
  const cases: Array<[string, Uint8Array, RegExp]> = [
    ['all zeros', new Uint8Array(64), /monobit_ratio 0\.0000/],
    ['all ones', new Uint8Array(64).fill(0xff), /monobit_ratio 1\.0000/],
    ['alternating bits 0101', new Uint8Array(64).fill(0x55), /fano_factor 0\.0000/],
    ['pairs of equal bits 0011', new Uint8Array(64).fill(0x33), /fano_factor 2\.0/],
    ['bytes 00 ff 00 ff', new Uint8Array(64).map((_, i) => (i % 2 === 0 ? 0 : 0xff)), /fano_factor 2\.0/],
    ['all zeros, 32 KB', new Uint8Array(32 * 1024), /monobit_ratio/]
  ]
  for (const [name, bytes, why] of cases) {
    const v = healthViolation(healthSnapshot(bytes), bounds)
    t.match(v, why, name)
  }
  t.equal(fanoFactor(new Uint8Array(64)), 0, 'no ones: no dispersion to measure, reported as 0')
  t.equal(fanoFactor(new Uint8Array(0)), 0)
})
