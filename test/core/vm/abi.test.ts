import t from 'tap'
import { encodeCall, decodeReturn, EncodeError, decodeRevertReason } from '../../../core/vm/index.ts'

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')
const w = (h: string): string => h.padStart(64, '0')

t.test('calldata is the selector then one 32-byte word per argument', async (t) => {
  const params = [
    { name: 'n', type: 'uint' }, { name: 'big', type: 'uint' }, { name: 'hex', type: 'uint' },
    { name: 'flag', type: 'bool' }, { name: 'who', type: 'address' }, { name: 'tag', type: 'bytes32' }, { name: 'raw', type: 'bytes32' }
  ]
  const data = encodeCall(3, [5, '115792089237316195423570985008687907853269984665640564039457584007913129639935', '0xff', 'true', '0x' + 'AB'.repeat(20), 'hi', '0x0102'], params)
  t.equal(hex(data), '03' + w('5') + 'f'.repeat(64) + w('ff') + w('1') + w('ab'.repeat(20)) + '6869'.padEnd(64, '0') + '0102'.padEnd(64, '0'))
  t.equal(hex(encodeCall(1, [], [])), '01')
  t.equal(hex(encodeCall(2, [false, 0n], [{ name: 'b', type: 'bool' }, { name: 'x', type: 'uint' }])), '02' + w('0') + w('0'))
})

t.test('arguments that do not fit their type are refused with a reason', async (t) => {
  const one = (type: string, value: unknown): unknown => encodeCall(1, [value], [{ name: 'x', type }])
  t.throws(() => encodeCall(0, [], []), /selector must be an integer 1..255/)
  t.throws(() => encodeCall(256, [], []), EncodeError)
  t.throws(() => encodeCall(1, [1], []), /expected 0 arguments, got 1/)
  t.throws(() => one('uint', -1), /safe range|outside/)
  t.throws(() => one('uint', 1.5), /not a whole number/)
  t.throws(() => one('uint', 'twelve'), /argument x: expected an unsigned integer/)
  t.throws(() => one('uint', '0x1' + '0'.repeat(64)), /outside 0..2\^256-1/)
  t.throws(() => one('bool', 'yes'), /expected true or false/)
  t.throws(() => one('address', '0x1234'), /40-hex VM address/)
  t.throws(() => one('bytes32', 'x'.repeat(33)), /33 bytes do not fit/)
  t.throws(() => one('bytes32', '0x123'), /not even-length hex/)
  t.throws(() => one('map<uint,uint>', 1), /cannot be passed as an argument/)
})

t.test('return data decodes by the method\'s return type', async (t) => {
  t.equal(decodeReturn(w('2a'), 'uint'), '42')
  t.equal(decodeReturn(w('1'), 'bool'), true)
  t.equal(decodeReturn(w('cd'.repeat(20)), 'address'), 'cd'.repeat(20))
  t.equal(decodeReturn('0x' + 'ef'.repeat(32), 'bytes32'), '0x' + 'ef'.repeat(32))
  t.equal(decodeReturn('', null), null)
  t.throws(() => decodeReturn('00', 'uint'), /one 32-byte word/)
})

t.test('revert reasons are the payload as text, hex when it is not UTF-8', async (t) => {
  t.equal(decodeRevertReason(Buffer.from('no such entry')), 'no such entry')
  t.equal(decodeRevertReason(new Uint8Array(0)), null)
  t.equal(decodeRevertReason(Uint8Array.of(0xc3, 0x28)), '0xc328')
})
