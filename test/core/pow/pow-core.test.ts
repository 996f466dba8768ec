import crypto from 'node:crypto'
import { readFileSync } from 'node:fs'
import t from 'tap'
import { getPowCore, meetsTarget } from '../../../core/pow/pow-core.ts'
import { difficultyTargetBytes, targetBytes } from '../../../core/chain/target.ts'
import type { PowCore } from '../../../core/pow/pow-core.ts'
import { sha3_512 } from '../../../core/crypto/sha3.ts'
import { simdSupported, wasmScalarPowCore, wasmSimdPowCore } from '../../../core/pow/pow-wasm.ts'
import { jsPowCore } from '../../../core/pow/pow-js.ts'
import { seededBytes } from '../../helpers/random.ts'

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')
// all three cores, each under its own name: the SIMD core, the scalar WASM core, the JS twin
type NamedCore = PowCore & { name: string }
const named = (name: string, core: PowCore): NamedCore => ({ name, kind: core.kind, hashHeader: core.hashHeader, search: core.search })
const cores: NamedCore[] = [named('wasm-simd', wasmSimdPowCore), named('wasm-scalar', wasmScalarPowCore), named('js', jsPowCore)]

interface PowVectors {
  hashes: Array<{ prefix: string; nonce: number; hash: string }>
  searches: Array<{ prefix: string; start: number; count: number; target: string; found: boolean; nonce: number; hash: string | null; note: string }>
}
/** the target of `d` leading zero hex digits, as the cores take it */
const zeros = (d: number): Uint8Array => difficultyTargetBytes(d)
/** a target no hash meets but an all-zero one */
const ZERO_TARGET = new Uint8Array(64)
const vectors = JSON.parse(readFileSync(new URL('../../vectors/pow.json', import.meta.url), 'utf8')) as PowVectors

t.test('every core matches the PoW vectors (test/vectors/pow.json)', async (t) => {
  for (const core of cores) {
    for (const v of vectors.hashes) {
      t.equal(hex(core.hashHeader(Buffer.from(v.prefix, 'hex'), v.nonce)), v.hash, `${core.name}: prefix ${v.prefix.length / 2}, nonce ${v.nonce}`)
    }
    for (const v of vectors.searches) {
      const r = core.search(Buffer.from(v.prefix, 'hex'), v.start, v.count, Buffer.from(v.target, 'hex'))
      t.same({ found: r.found, nonce: r.nonce, hash: r.hash === null ? null : hex(r.hash), tried: r.tried },
        { found: v.found, nonce: v.nonce, hash: v.hash, tried: v.found ? v.nonce - v.start + 1 : v.count },
        `${core.name}: search from ${v.start}, ${v.note}, prefix ${v.prefix.length / 2}`)
    }
  }
})

t.test('this engine has WebAssembly SIMD, so the node mines with the SIMD core', async (t) => {
  t.ok(simdSupported(), 'WebAssembly.validate accepts the SIMD probe')
  const prefix = Buffer.from(vectors.searches[0]!.prefix, 'hex')
  t.same(getPowCore('wasm').search(prefix, 0, 1 << 22, zeros(4)), wasmSimdPowCore.search(prefix, 0, 1 << 22, zeros(4)))
})

t.test('the SIMD core hashes three nonces a pass: a winner in any of the three, any start and count', async (t) => {
  const prefix = seededBytes('simd pairs', 264)
  const scalar = wasmScalarPowCore.search(prefix, 0, 1 << 20, zeros(3))
  t.ok(scalar.found)
  for (let start = scalar.nonce - 6; start <= scalar.nonce; start++) {
    if (start < 0) continue
    for (const count of [1, 2, 3, 4, 5, 6, 7, 8]) {
      t.same(wasmSimdPowCore.search(prefix, start, count, zeros(3)), wasmScalarPowCore.search(prefix, start, count, zeros(3)), `start ${start}, count ${count}`)
    }
  }
})

t.test('the SIMD core reads only the first lane of a digest until it could win: same results at every target', async (t) => {
  const prefix = seededBytes('simd first lane', 264)
  // leading-zero targets, targets whose first 64 bits are all that matter, ones below 2^448
  // (the first lane must be zero), and the extremes
  const fine = [0x3f5a1234, 0x3e7fffff, 0x3d012345].map((bits) => targetBytes(BigInt(bits & 0xffffff) << BigInt(8 * ((bits >>> 24) - 3))))
  const targets = [...[0, 1, 2, 3, 4, 5, 15, 16, 17, 32].map(zeros), ...fine, ZERO_TARGET, new Uint8Array(64).fill(0xff)]
  for (const [i, target] of targets.entries()) {
    for (const start of [0, 1, 2 ** 32 - 7]) {
      t.same(wasmSimdPowCore.search(prefix, start, 1 << 16, target), wasmScalarPowCore.search(prefix, start, 1 << 16, target), `target ${i}, start ${start}`)
      t.same(jsPowCore.search(prefix, start, 1 << 12, target), wasmScalarPowCore.search(prefix, start, 1 << 12, target), `JS twin, target ${i}, start ${start}`)
    }
  }
})

t.test('a tie on the first 64 bits is settled by the full compare, in every core', async (t) => {
  const prefix = seededBytes('tie on the first lane', 264)
  for (const nonce of [5, 6, 7, 100]) {
    const hash = jsPowCore.hashHeader(prefix, nonce)
    const value = BigInt('0x' + hex(hash))
    for (const core of cores) {
      t.ok(core.search(prefix, nonce, 1, targetBytes(value)).found, `${core.name}: nonce ${nonce}, target = its hash: met`)
      t.notOk(core.search(prefix, nonce, 1, targetBytes(value - 1n)).found, `${core.name}: nonce ${nonce}, target = its hash − 1 (first 64 bits tie): missed`)
      t.ok(core.search(prefix, nonce, 1, targetBytes(value + 1n)).found, `${core.name}: nonce ${nonce}, target = its hash + 1: met`)
      // searched among its neighbours: the simd core checks three a pass
      const around = core.search(prefix, nonce - 2, 5, targetBytes(value))
      t.ok(around.found && around.nonce <= nonce, `${core.name}: nonce ${nonce} among neighbours`)
      t.same(around, jsPowCore.search(prefix, nonce - 2, 5, targetBytes(value)), `${core.name}: the neighbours agree with the JS twin`)
    }
  }
})

function header (prefix: Uint8Array, nonce: number): Buffer {
  const out = Buffer.alloc(prefix.length + 8)
  out.set(prefix)
  out.writeBigUInt64BE(BigInt(nonce), prefix.length)
  return out
}

// 264 is the node's header prefix (tail 48: one block per nonce); tails 64..71 need two
// blocks; 0 and 72 leave an empty tail
const prefixLengths = [0, 1, 47, 48, 63, 64, 65, 70, 71, 72, 73, 136, 200, 264, 300, 1000]
const edgeNonces = [0, 1, 255, 256, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 40 + 12345, 2 ** 53 - 1]

t.test('getPowCore returns each kind and refuses others', async (t) => {
  t.equal(getPowCore('wasm').kind, 'wasm')
  t.equal(getPowCore('js').kind, 'js')
  t.throws(() => getPowCore('gpu' as 'js'), RangeError)
})

t.test('hashHeader is SHA3-512(prefix ‖ nonce as uint64 big-endian)', async (t) => {
  for (const length of prefixLengths) {
    const prefix = seededBytes(`hashHeader prefix ${length}`, length)
    for (const nonce of edgeNonces) {
      const expected = crypto.hash('sha3-512', header(prefix, nonce))
      t.equal(hex(sha3_512(header(prefix, nonce))), expected, `facade, prefix ${length}, nonce ${nonce}`)
      for (const core of cores) t.equal(hex(core.hashHeader(prefix, nonce)), expected, `${core.name}, prefix ${length}, nonce ${nonce}`)
    }
  }
})

t.test('every core finds the same first nonce, and it is the first', async (t) => {
  for (const length of prefixLengths) {
    const prefix = seededBytes(`first nonce prefix ${length}`, length)
    const difficulty = length === 264 ? 4 : 3
    const start = length * 1000 + 2 ** 32 - 3000 // some searches cross a 2^32 carry
    const [wasm, scalar, js] = cores.map((core) => core.search(prefix, start, 1 << 20, zeros(difficulty)))
    t.ok(wasm!.found && js!.found, `prefix ${length}: both found`)
    t.equal(wasm!.nonce, js!.nonce, `prefix ${length}: same nonce`)
    t.same(scalar, wasm, `prefix ${length}: the scalar core agrees with the SIMD one`)
    t.equal(wasm!.tried, wasm!.nonce - start + 1, `prefix ${length}: tried counts up to the winner`)
    t.equal(js!.tried, wasm!.tried)
    t.equal(hex(wasm!.hash!), crypto.hash('sha3-512', header(prefix, wasm!.nonce)), `prefix ${length}: wasm hash`)
    t.equal(hex(js!.hash!), hex(wasm!.hash!), `prefix ${length}: js hash`)
    t.ok(meetsTarget(wasm!.hash!, zeros(difficulty)))
    let earlier = 0
    for (let n = start; n < wasm!.nonce; n++) {
      if (meetsTarget(cores[0]!.hashHeader(prefix, n), zeros(difficulty))) earlier++
    }
    t.equal(earlier, 0, `prefix ${length}: no earlier nonce meets difficulty ${difficulty}`)
  }
})

t.test('a search that finds nothing reports where to go on', async (t) => {
  const prefix = seededBytes('finds nothing', 264)
  for (const core of cores) {
    t.same(core.search(prefix, 500, 300, zeros(40)), { found: false, nonce: 800, hash: null, tried: 300 }, core.name)
    t.same(core.search(prefix, 7, 0, zeros(1)), { found: false, nonce: 7, hash: null, tried: 0 }, `${core.name}, count 0`)
    t.same(core.search(prefix, 0, 50, ZERO_TARGET), { found: false, nonce: 50, hash: null, tried: 50 }, `${core.name}, target zero`)
    const easy = core.search(prefix, 9, 5, new Uint8Array(64).fill(0xff))
    t.equal(easy.found && easy.nonce, 9, `${core.name}, the largest target takes the first nonce`)
  }
})

t.test('the midstate follows the prefix, even one changed in place', async (t) => {
  const a = seededBytes('midstate', 264)
  const b = Buffer.from(a)
  b[10] = b[10]! ^ 1 // same length, one whole block differs
  const c = Buffer.from(a)
  c[263] = c[263]! ^ 1 // only the tail differs
  for (const core of cores) {
    for (const prefix of [a, b, c, a, c]) {
      t.equal(hex(core.hashHeader(prefix, 42)), crypto.hash('sha3-512', header(prefix, 42)), `${core.name}`)
    }
    const mutable = Buffer.from(a)
    core.hashHeader(mutable, 1)
    mutable[0] = mutable[0]! ^ 0xff
    t.equal(hex(core.hashHeader(mutable, 1)), crypto.hash('sha3-512', header(mutable, 1)), `${core.name}: caller mutated the prefix`)
    const big = seededBytes('150 kB prefix', 150_000) // longer than the WASM core's input buffer
    t.equal(hex(core.hashHeader(big, 3)), crypto.hash('sha3-512', header(big, 3)), `${core.name}: 150 kB prefix`)
  }
})

t.test('bad arguments are refused', async (t) => {
  const prefix = new Uint8Array(264)
  for (const core of cores) {
    for (const nonce of [-1, 1.5, 2 ** 53, Number.NaN]) t.throws(() => core.hashHeader(prefix, nonce), RangeError, `${core.name} nonce ${nonce}`)
    t.throws(() => core.search(prefix, 2 ** 53 - 10, 11, zeros(1)), RangeError, `${core.name}: range past 2^53`)
    t.throws(() => core.search(prefix, 0, -1, zeros(1)), RangeError)
    t.throws(() => core.search(prefix, 0, 10, new Uint8Array(63)), RangeError, `${core.name}: a 63-byte target`)
    t.throws(() => core.search(prefix, 0, 10, 3 as unknown as Uint8Array), RangeError, `${core.name}: a number for a target`)
    const last = core.search(prefix, 2 ** 53 - 10, 10, new Uint8Array(64).fill(0xff))
    t.equal(last.nonce, 2 ** 53 - 10, `${core.name}: the top of the range is searchable`)
  }
})

t.test('meetsTarget compares the hash with the target as 512-bit big-endian integers', async (t) => {
  const bytes = (...head: number[]): Uint8Array => { const h = new Uint8Array(64); h.set(head); return h }
  t.ok(meetsTarget(bytes(0x10), bytes(0x10)), 'equal: met')
  t.notOk(meetsTarget(bytes(0x10, 0x01), bytes(0x10)), 'one more in the second byte: missed')
  t.ok(meetsTarget(bytes(0x0f, 0xff, 0xff), bytes(0x10)), 'below in the first byte, whatever follows')
  const lastByte = bytes(); lastByte[63] = 1
  t.notOk(meetsTarget(lastByte, bytes()), 'the last byte counts')
  t.ok(meetsTarget(bytes(), bytes()), 'zero meets zero')
  t.notOk(meetsTarget(new Uint8Array(32), bytes()), 'a hash of another length never meets')
  // hashes written as hex: `d` zero digits, then all f: exactly what d leading zeros allow
  const fromHex = (digits: string): Uint8Array => Uint8Array.from(Buffer.from(digits, 'hex'))
  for (const d of [1, 2, 3, 8, 127]) {
    t.ok(meetsTarget(fromHex('0'.repeat(d) + 'f'.repeat(128 - d)), zeros(d)), `${d} zero digits meet the target of ${d}`)
    t.notOk(meetsTarget(fromHex('0'.repeat(d - 1) + '1' + '0'.repeat(128 - d)), zeros(d)), `${d - 1} zero digits then a 1 miss the target of ${d}`)
  }
})
