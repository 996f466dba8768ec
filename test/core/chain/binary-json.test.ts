import t from 'tap'
import { decodeBinaryJson, encodeBinaryJson, BinaryJsonError, MAX_DEPTH, memberTag, memberHexBytes, arrayItemSpans, decodeBinaryJsonMember, HEX_TAG } from '../../../core/chain/binary-json.ts'

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')
const bytes = (h: string): Buffer => Buffer.from(h.replace(/\s+/g, ''), 'hex')

t.test('exact bytes of each kind (the spec in docs/chain.md)', async (t) => {
  t.equal(hex(encodeBinaryJson(false)), '01')
  t.equal(hex(encodeBinaryJson(true)), '02')
  t.equal(hex(encodeBinaryJson(null)), '03')
  t.equal(hex(encodeBinaryJson(1.5)), '043ff8000000000000')
  t.equal(hex(encodeBinaryJson(-0)), '040000000000000000', '-0 is 0, as in JSON')
  t.equal(hex(encodeBinaryJson('hi')), '05026869')
  t.equal(hex(encodeBinaryJson('')), '0500', 'the empty string is UTF-8, not hex')
  t.equal(hex(encodeBinaryJson('abc')), '0503616263', 'odd-length hex text stays UTF-8')
  t.equal(hex(encodeBinaryJson('AB')), '05024142', 'upper-case hex text stays UTF-8')
  t.equal(hex(encodeBinaryJson('00ff')), '060200ff')
  t.equal(hex(encodeBinaryJson([1, 'x'])), '0702043ff00000000000000501' + '78')
  t.equal(hex(encodeBinaryJson({ b: 1, a: null })), '080201' + '61' + '03' + '0162' + '043ff0000000000000', 'keys sorted')
  t.equal(hex(encodeBinaryJson({ a: undefined, b: true })), '08010162' + '02', 'undefined members are dropped, as JSON drops them')
  t.equal(hex(encodeBinaryJson('x'.repeat(200))).slice(0, 6), '05c801', 'lengths are LEB128')
  t.equal(hex(encodeBinaryJson(true, 0x07)), '0702', 'a prefix byte')
})

t.test('every value round-trips and re-encodes to its bytes', async (t) => {
  const values: unknown[] = [
    0, 1, -1, 1e21, 5e-324, Number.MAX_SAFE_INTEGER, 0.1, '', 'héllo — ✓ \u2028', '\ufeffbom', 'ab'.repeat(5000),
    [], {}, [[[]]], { __proto__: 1, constructor: 'x' }, { é: 1, e: 2, Z: 3, '': 4 },
    { sender: 'mining_reward', data: { public_key: 'ab'.repeat(1296), memo: 'hi', nested: [1, { z: null }] } }
  ]
  for (const v of values) {
    const enc = encodeBinaryJson(v)
    const dec = decodeBinaryJson(enc)
    t.same(dec, JSON.parse(JSON.stringify(v)), `value ${values.indexOf(v)} round-trips`)
    t.same(encodeBinaryJson(dec), enc, 're-encodes the same')
  }
  const proto = decodeBinaryJson(encodeBinaryJson(JSON.parse('{"__proto__": {"polluted": 1}}'))) as Record<string, unknown>
  t.equal(Object.getPrototypeOf(proto), Object.prototype, '__proto__ is a plain key, not a prototype')
  t.same(Object.keys(proto), ['__proto__'])
  t.equal(({} as Record<string, unknown>).polluted, undefined)
})

t.test('values with no canonical form are refused', async (t) => {
  t.throws(() => encodeBinaryJson(NaN), BinaryJsonError)
  t.throws(() => encodeBinaryJson(Infinity), BinaryJsonError)
  t.throws(() => encodeBinaryJson('\ud800'), BinaryJsonError, 'a lone surrogate')
  t.throws(() => encodeBinaryJson({ '\udc00': 1 }), BinaryJsonError, 'a lone surrogate in a key')
  t.throws(() => encodeBinaryJson(1n), BinaryJsonError)
  t.throws(() => encodeBinaryJson(() => 1), BinaryJsonError)
  let deep: unknown = 1
  for (let i = 0; i <= MAX_DEPTH; i++) deep = [deep]
  t.throws(() => encodeBinaryJson(deep), BinaryJsonError, 'deeper than the limit')
})

t.test('hostile bytes: every non-canonical or malformed form is refused', async (t) => {
  const bad: Array<[string, string]> = [
    ['', 'empty'],
    ['09', 'unknown tag'],
    ['00', 'tag 0'],
    ['0102', 'trailing bytes'],
    ['043ff0', 'truncated number'],
    ['047ff8000000000000', 'NaN'],
    ['047ff0000000000000', 'Infinity'],
    ['048000000000000000', '-0'],
    ['0503', 'string length past the end'],
    ['05026162', 'hex text sent as UTF-8 ("ab")'],
    ['0502c328', 'invalid UTF-8'],
    ['0503eda080', 'UTF-8 of a surrogate'],
    ['0600', 'empty hex'],
    ['058000', 'non-minimal length (0 in two bytes)'],
    ['0581 00' + '61', 'non-minimal length (1 in two bytes)'],
    ['05ffffffff7f', 'length over 2^32 - 1'],
    ['05ffffffffff01', 'length longer than 5 bytes'],
    ['07ffffffff0f', 'array count past the end'],
    ['0802016103016103', 'duplicate keys'],
    ['080201620301610' + '3', 'keys out of order'],
    ['08ffffffff0f', 'object count past the end'],
    ['07' + '01'.repeat(40) + '03', 'too deep']
  ]
  for (const [h, why] of bad) t.throws(() => decodeBinaryJson(bytes(h)), BinaryJsonError, why)
  let deep = '03'
  for (let i = 0; i <= MAX_DEPTH; i++) deep = '0701' + deep
  t.throws(() => decodeBinaryJson(bytes(deep)), BinaryJsonError, 'nesting past the limit')
})

t.test('seeded random byte strings never decode to something that re-encodes differently', async (t) => {
  let seed = 12345
  const rand = (): number => { seed = (seed * 1103515245 + 12345) >>> 0; return seed >>> 8 }
  const base = encodeBinaryJson({ a: [1, 'xy', 'abcd', null, true], b: { c: 'é' } })
  let decoded = 0
  let differing = 0
  for (let i = 0; i < 3000; i++) {
    const mutated = Buffer.from(base)
    const flips = 1 + (rand() % 3)
    for (let f = 0; f < flips; f++) mutated[rand() % mutated.length] = rand() & 0xff
    let v: unknown
    try { v = decodeBinaryJson(mutated) } catch (err) { if (!(err instanceof BinaryJsonError)) throw err; continue }
    decoded++
    if (!encodeBinaryJson(v).equals(mutated)) differing++
  }
  t.equal(differing, 0, 'every decoded value has exactly the bytes it came from')
  t.ok(decoded > 0, `some mutations still decode (${decoded})`)
})

t.test('memberTag finds a member of an encoded object past nested values', async (t) => {
  const value = { a: [1, 'x', { q: null }], b: { deep: [true, false, 'ab'] }, memo: 'hello', n: 2.5, signature: 'deadbeef', upper: 'DEADBEEF', z: 'abc' }
  const bytes = encodeBinaryJson(value, 0x01)
  t.equal(memberTag(bytes, 1, 'signature'), HEX_TAG)
  t.equal(memberTag(bytes, 1, 'upper'), 0x05, 'upper-case hex is UTF-8 text')
  t.equal(memberTag(bytes, 1, 'z'), 0x05, 'odd-length hex is UTF-8 text')
  t.equal(memberTag(bytes, 1, 'n'), 0x04)
  t.equal(memberTag(bytes, 1, 'b'), 0x08)
  t.equal(memberTag(bytes, 1, 'missing'), undefined)
  t.equal(memberTag(encodeBinaryJson([1]), 0, 'a'), undefined, 'not an object')
})

t.test('memberHexBytes: the bytes of a member written as hex text, past a multi-byte length', async (t) => {
  const long = 'ab'.repeat(300) // 300 bytes: a two-byte LEB128 length
  const bytes = encodeBinaryJson({ a: [1, { q: 'cd' }], memo: 'hello', signature: long, upper: 'DEADBEEF', z: 'abc' }, 0x01)
  t.same(Buffer.from(memberHexBytes(bytes, 1, 'signature')!), Buffer.from(long, 'hex'))
  t.equal(memberHexBytes(bytes, 1, 'upper'), undefined, 'upper-case hex is text, not bytes')
  t.equal(memberHexBytes(bytes, 1, 'memo'), undefined)
  t.equal(memberHexBytes(bytes, 1, 'a'), undefined, 'a list')
  t.equal(memberHexBytes(bytes, 1, 'missing'), undefined)
})

t.test('arrayItemSpans: each item of an array member as the bytes it was encoded as', async (t) => {
  const items = [{ memo: 'ü', signature: 'ab'.repeat(300) }, 2.5, [null, 'x'], 'cd', {}]
  const bytes = encodeBinaryJson({ a: { transactions: 'not this one' }, transactions: items, z: [1] }, 0x02)
  const spans = arrayItemSpans(bytes, 1, 'transactions')!
  t.equal(spans.length, items.length)
  t.same(spans.map(([s, e]) => Buffer.from(bytes.subarray(s, e))), items.map((v) => encodeBinaryJson(v)), 'each span is the item\'s own encoding')
  t.same(arrayItemSpans(encodeBinaryJson({ transactions: [] }), 0, 'transactions'), [], 'an empty array')
  t.equal(arrayItemSpans(bytes, 1, 'a'), undefined, 'an object, not an array')
  t.equal(arrayItemSpans(bytes, 1, 'missing'), undefined)
  t.equal(arrayItemSpans(encodeBinaryJson([1]), 0, 'transactions'), undefined, 'not an object')
})

/** what decodeBinaryJsonMember must give for `bytes`: the full decoder's verdict and member */
function expectedMember (bytes: Uint8Array, key: string): { threw: boolean; value?: unknown } {
  try {
    const v = decodeBinaryJson(bytes)
    return { threw: false, value: v !== null && typeof v === 'object' && !Array.isArray(v) && Object.hasOwn(v, key) ? (v as Record<string, unknown>)[key] : undefined }
  } catch (err) {
    if (!(err instanceof BinaryJsonError)) throw err
    return { threw: true }
  }
}

function memberOrThrew (bytes: Uint8Array, key: string): { threw: boolean; value?: unknown } {
  try {
    return { threw: false, value: decodeBinaryJsonMember(bytes, 0, key) }
  } catch (err) {
    if (!(err instanceof BinaryJsonError)) throw err
    return { threw: true }
  }
}

t.test('decodeBinaryJsonMember: one member, the whole value checked as decodeBinaryJson checks it', async (t) => {
  const block = { hash: 'ab'.repeat(64), quantum_signature: { beacons: [{ round: 7, signature: 'cd'.repeat(48) }], v: 2 }, transactions: [{ memo: 'é ✓', signature: 'ef'.repeat(300) }, { n: 1.5 }] }
  const enc = encodeBinaryJson(block)
  t.same(decodeBinaryJsonMember(enc, 0, 'quantum_signature'), block.quantum_signature)
  t.same(decodeBinaryJsonMember(enc, 0, 'transactions'), block.transactions)
  t.equal(decodeBinaryJsonMember(enc, 0, 'missing'), undefined)
  t.equal(decodeBinaryJsonMember(encodeBinaryJson([1, { quantum_signature: 1 }]), 0, 'quantum_signature'), undefined, 'not an object: nothing, still checked')
  t.same(decodeBinaryJsonMember(encodeBinaryJson({ a: 1 }, 0x02), 1, 'a'), 1, 'from an offset')
  // every malformed form the full decoder refuses, inside a member that is skipped
  const bad = ['09', '00', '043ff0', '047ff8000000000000', '048000000000000000', '0503', '05026162', '0502c328', '0503eda080', '0600', '058000', '058100' + '61', '07ffffffff0f', '0802016103016103', '0802016203016103', '08ffffffff0f', '07' + '01'.repeat(40) + '03']
  for (const h of bad) {
    const wrapped = Buffer.concat([Buffer.from('08020161', 'hex'), bytes(h), Buffer.from('0162' + '03', 'hex')]) // { a: <bad>, b: null }
    t.equal(memberOrThrew(wrapped, 'b').threw, true, `refused when skipped: ${h}`)
    t.equal(expectedMember(wrapped, 'b').threw, true, `and by the full decoder: ${h}`)
  }
  t.equal(memberOrThrew(Buffer.concat([enc, Buffer.from([0])]), 'hash').threw, true, 'trailing bytes')
})

t.test('decodeBinaryJsonMember agrees with decodeBinaryJson on seeded random mutations of a block', async (t) => {
  let seed = 777
  const rand = (): number => { seed = (seed * 1103515245 + 12345) >>> 0; return seed >>> 8 }
  const base = encodeBinaryJson({ hash: 'ab'.repeat(8), quantum_signature: { beacons: [{ round: 7 }], memo: 'ü' }, transactions: [{ memo: 'hé', n: 2, sig: 'cdef' }, [true, null, 'xy']] })
  let agreedOnValue = 0
  for (let i = 0; i < 4000; i++) {
    const mutated = Buffer.from(base)
    const flips = 1 + (rand() % 3)
    for (let f = 0; f < flips; f++) mutated[rand() % mutated.length] = rand() & 0xff
    for (const key of ['quantum_signature', 'transactions']) {
      const want = expectedMember(mutated, key)
      const got = memberOrThrew(mutated, key)
      if (got.threw !== want.threw || (!want.threw && JSON.stringify(got.value) !== JSON.stringify(want.value))) {
        t.fail(`mutation ${i} (${mutated.toString('hex')}), member ${key}: ${JSON.stringify(got)} vs ${JSON.stringify(want)}`)
        return
      }
      if (!want.threw) agreedOnValue++
    }
  }
  t.ok(agreedOnValue > 0, `same verdict on every mutation; ${agreedOnValue} decoded alike`)
})
