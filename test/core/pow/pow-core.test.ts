import crypto from 'node:crypto'
import { readFileSync } from 'node:fs'
import t from 'tap'
import { getPowCore, meetsDifficulty } from '../../../core/pow/pow-core.ts'
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
  searches: Array<{ prefix: string; start: number; difficulty: number; nonce: number; hash: string }>
}
const vectors = JSON.parse(readFileSync(new URL('../../vectors/pow.json', import.meta.url), 'utf8')) as PowVectors

t.test('every core matches the PoW vectors (test/vectors/pow.json)', async (t) => {
  for (const core of cores) {
    for (const v of vectors.hashes) {
      t.equal(hex(core.hashHeader(Buffer.from(v.prefix, 'hex'), v.nonce)), v.hash, `${core.name}: prefix ${v.prefix.length / 2}, nonce ${v.nonce}`)
    }
    for (const v of vectors.searches) {
      const r = core.search(Buffer.from(v.prefix, 'hex'), v.start, 1 << 22, v.difficulty)
      t.same({ nonce: r.nonce, hash: r.hash === null ? null : hex(r.hash), tried: r.tried }, { nonce: v.nonce, hash: v.hash, tried: v.nonce - v.start + 1 },
        `${core.name}: search from ${v.start} at difficulty ${v.difficulty}, prefix ${v.prefix.length / 2}`)
    }
  }
})

t.test('this engine has WebAssembly SIMD, so the node mines with the SIMD core', async (t) => {
  t.ok(simdSupported(), 'WebAssembly.validate accepts the SIMD probe')
  const prefix = Buffer.from(vectors.searches[0]!.prefix, 'hex')
  t.same(getPowCore('wasm').search(prefix, 0, 1 << 22, 4), wasmSimdPowCore.search(prefix, 0, 1 << 22, 4))
})

t.test('the SIMD core hashes three nonces a pass: a winner in any of the three, any start and count', async (t) => {
  const prefix = seededBytes('simd pairs', 264)
  const scalar = wasmScalarPowCore.search(prefix, 0, 1 << 20, 3)
  t.ok(scalar.found)
  for (let start = scalar.nonce - 6; start <= scalar.nonce; start++) {
    if (start < 0) continue
    for (const count of [1, 2, 3, 4, 5, 6, 7, 8]) {
      t.same(wasmSimdPowCore.search(prefix, start, count, 3), wasmScalarPowCore.search(prefix, start, count, 3), `start ${start}, count ${count}`)
    }
  }
})

t.test('the SIMD core reads only the first lane of a digest until it could win: same results at every difficulty', async (t) => {
  const prefix = seededBytes('simd first lane', 264)
  for (const difficulty of [0, 1, 2, 3, 4, 5, 15, 16, 17, 32]) {
    for (const start of [0, 1, 2 ** 32 - 7]) {
      t.same(wasmSimdPowCore.search(prefix, start, 1 << 16, difficulty), wasmScalarPowCore.search(prefix, start, 1 << 16, difficulty), `difficulty ${difficulty}, start ${start}`)
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
    const [wasm, scalar, js] = cores.map((core) => core.search(prefix, start, 1 << 20, difficulty))
    t.ok(wasm!.found && js!.found, `prefix ${length}: both found`)
    t.equal(wasm!.nonce, js!.nonce, `prefix ${length}: same nonce`)
    t.same(scalar, wasm, `prefix ${length}: the scalar core agrees with the SIMD one`)
    t.equal(wasm!.tried, wasm!.nonce - start + 1, `prefix ${length}: tried counts up to the winner`)
    t.equal(js!.tried, wasm!.tried)
    t.equal(hex(wasm!.hash!), crypto.hash('sha3-512', header(prefix, wasm!.nonce)), `prefix ${length}: wasm hash`)
    t.equal(hex(js!.hash!), hex(wasm!.hash!), `prefix ${length}: js hash`)
    t.ok(meetsDifficulty(wasm!.hash!, difficulty))
    let earlier = 0
    for (let n = start; n < wasm!.nonce; n++) {
      if (meetsDifficulty(cores[0]!.hashHeader(prefix, n), difficulty)) earlier++
    }
    t.equal(earlier, 0, `prefix ${length}: no earlier nonce meets difficulty ${difficulty}`)
  }
})

t.test('a search that finds nothing reports where to go on', async (t) => {
  const prefix = seededBytes('finds nothing', 264)
  for (const core of cores) {
    t.same(core.search(prefix, 500, 300, 40), { found: false, nonce: 800, hash: null, tried: 300 }, core.name)
    t.same(core.search(prefix, 7, 0, 1), { found: false, nonce: 7, hash: null, tried: 0 }, `${core.name}, count 0`)
    t.same(core.search(prefix, 0, 50, 129), { found: false, nonce: 50, hash: null, tried: 50 }, `${core.name}, more digits than a hash has`)
    const easy = core.search(prefix, 9, 5, 0)
    t.equal(easy.found && easy.nonce, 9, `${core.name}, difficulty 0 takes the first nonce`)
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
    t.throws(() => core.search(prefix, 2 ** 53 - 10, 11, 1), RangeError, `${core.name}: range past 2^53`)
    t.throws(() => core.search(prefix, 0, -1, 1), RangeError)
    t.throws(() => core.search(prefix, 0, 10, -1), RangeError)
    t.throws(() => core.search(prefix, 0, 10, 2.5), RangeError)
    const last = core.search(prefix, 2 ** 53 - 10, 10, 0)
    t.equal(last.nonce, 2 ** 53 - 10, `${core.name}: the top of the range is searchable`)
  }
})

t.test('meetsDifficulty counts leading zero hex digits', async (t) => {
  const hash = (...bytes: number[]): Uint8Array => { const h = new Uint8Array(64).fill(0xff); h.set(bytes); return h }
  t.ok(meetsDifficulty(hash(0xff), 0), 'difficulty 0 always')
  t.ok(meetsDifficulty(hash(0x0f), 1), '0x0f: one zero digit')
  t.notOk(meetsDifficulty(hash(0x0f), 2))
  t.notOk(meetsDifficulty(hash(0x10), 1), '0x10: none')
  t.ok(meetsDifficulty(hash(0x00, 0x0f), 3), 'odd: half of the next byte')
  t.notOk(meetsDifficulty(hash(0x00, 0x10), 3))
  t.ok(meetsDifficulty(hash(0x00, 0x00), 4), 'even: whole bytes')
  t.notOk(meetsDifficulty(hash(0x00, 0x01), 4))
  t.notOk(meetsDifficulty(hash(0x01, 0x00), 4), 'a non-zero digit before zeros')
  const zero = new Uint8Array(64)
  t.ok(meetsDifficulty(zero, 128), 'all 128 digits')
  t.notOk(meetsDifficulty(zero, 129), 'more digits than the hash has')
  t.notOk(meetsDifficulty(zero, 130))
})
