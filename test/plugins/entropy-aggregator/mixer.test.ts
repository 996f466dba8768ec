import t from 'tap'
import { xorMix, xorInto } from '../../../plugins/entropy-aggregator/mixer.ts'

t.test('XOR of known inputs gives the known output', async (t) => {
  const a = Uint8Array.of(0x0f, 0xf0, 0xaa, 0x00)
  const b = Uint8Array.of(0xff, 0xff, 0x55, 0x00)
  const c = Uint8Array.of(0x01, 0x02, 0x03, 0x80)
  t.same([...xorMix([a, b, c])], [0xf1, 0x0d, 0xfc, 0x80])
  t.same([...a], [0x0f, 0xf0, 0xaa, 0x00], 'inputs are not modified')
  t.same([...xorMix([a])], [...a], 'one input: itself')
  t.same([...xorMix([a, a])], [0, 0, 0, 0], 'an input XORed with itself cancels (why a source is never mixed twice)')
})

t.test('inputs of different lengths and empty input lists are refused', async (t) => {
  t.throws(() => xorMix([new Uint8Array(4), new Uint8Array(3)]), /cannot XOR 3 bytes into 4/)
  t.throws(() => xorMix([]), /nothing to mix/)
  const target = Uint8Array.of(1, 2)
  xorInto(target, Uint8Array.of(3, 3))
  t.same([...target], [2, 1])
})
