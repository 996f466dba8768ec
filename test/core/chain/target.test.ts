// The compact target (core/chain/target.ts): canonical encodings only, exact decoding, the
// leading-zero difficulty surfaces show, and work = 2^512 / (target + 1).
import t from 'tap'
import { bitsForDifficulty, bitsProblem, decodeBits, difficultyOfBits, difficultyOfTarget, encodeBits, targetBytes, targetForDifficulty, workOfBits, workOfTarget } from '../../../core/chain/target.ts'
import { seededRandom } from '../../helpers/random.ts'

t.test('bits decode to M × 256^(E − 3)', async (t) => {
  t.equal(decodeBits(0x03123456), 0x123456n)
  t.equal(decodeBits(0x04123456), 0x12345600n)
  t.equal(decodeBits(0x3fffffff), ((1n << 24n) - 1n) << 480n, 'the largest mantissa at E = 63')
  t.equal(decodeBits(0x40ffffff), ((1n << 24n) - 1n) << 488n, 'E = 64: just below 2^512')
  t.equal(decodeBits(0x3c100000), 1n << 476n)
})

t.test('only canonical bits are accepted: one encoding per target', async (t) => {
  const refused: Array<[number, RegExp]> = [
    [0x3f00ffff, /zero leading byte/], // the same target as 0x3effff00 spelled with a leading zero byte
    [0x3e000001, /zero leading byte/],
    [0x02ffffff, /exponent 2/],
    [0x00000000, /exponent 0/],
    [0x41010000, /exponent 65/], // 2^512 and above
    [0xff123456, /exponent 255/]
  ]
  for (const [bits, why] of refused) {
    t.match(bitsProblem(bits), why, `0x${bits.toString(16)} refused`)
    t.throws(() => decodeBits(bits), RangeError)
  }
  for (const bad of [-1, 2 ** 32, 1.5, Number.NaN, '0x3fffffff', null]) t.match(bitsProblem(bad), /integer/, `${String(bad)} is no u32`)
  t.equal(bitsProblem(0x3effff00), undefined)
  t.equal(encodeBits(decodeBits(0x3effff00)), 0x3effff00)
})

t.test('encodeBits rounds down to the nearest representable target and round-trips canonical bits', async (t) => {
  const random = seededRandom(28)
  for (let i = 0; i < 500; i++) {
    const exponent = 3 + Math.floor(random() * 62)
    const mantissa = 0x10000 + Math.floor(random() * (0x1000000 - 0x10000))
    const bits = exponent * 2 ** 24 + mantissa
    t.equal(encodeBits(decodeBits(bits)), bits)
    // every target from this one up to just below the next representable one encodes to it
    const target = decodeBits(bits)
    const below = target + (1n << BigInt(8 * (exponent - 3))) - 1n
    t.equal(encodeBits(below), bits, 'rounded down, never up')
    if (exponent > 3 && mantissa > 0x10000) t.equal(encodeBits(target - 1n), bits - 1, 'one below is the mantissa before')
  }
  t.equal(encodeBits((1n << 486n) - 1n), 0x3d3fffff)
  t.throws(() => encodeBits(1n << 512n), RangeError)
  t.throws(() => encodeBits(0xffffn), RangeError)
})

t.test('difficulty is the target\'s leading zero hex digits; bitsForDifficulty is the easiest target of d', async (t) => {
  t.equal(difficultyOfTarget((1n << 512n) - 1n), 0)
  t.equal(difficultyOfTarget((1n << 508n) - 1n), 1)
  t.equal(difficultyOfTarget(1n << 508n), 0)
  t.equal(difficultyOfTarget(1n << 476n), 8, '2^476: the hardest target of difficulty 8')
  t.equal(difficultyOfTarget((1n << 476n) - 1n), 9)
  for (const d of [1, 2, 5, 6, 7, 8, 20]) {
    t.equal(difficultyOfBits(bitsForDifficulty(d)), d, `difficulty ${d}`)
    t.ok(decodeBits(bitsForDifficulty(d)) <= targetForDifficulty(d))
    // a hash meets the target of d exactly when its first d hex digits are zero
    t.equal(Buffer.from(targetBytes(targetForDifficulty(d))).toString('hex'), '0'.repeat(d) + 'f'.repeat(128 - d))
  }
})

t.test('work = 2^512 / (target + 1): the hashes a target takes on average', async (t) => {
  t.equal(workOfTarget(targetForDifficulty(1)), 16n, 'one leading zero digit: 16 hashes')
  t.equal(workOfTarget(targetForDifficulty(8)), 1n << 32n)
  t.equal(workOfTarget((1n << 511n) - 1n), 2n, 'half the hashes meet it')
  t.equal(workOfBits(0x3d010000), (1n << 512n) / ((1n << 480n) + 1n))
  t.ok(workOfBits(0x3d3fffff) > workOfBits(0x3d40ffff), 'a larger target is less work')
})
