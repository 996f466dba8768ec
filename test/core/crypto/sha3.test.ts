import crypto from 'node:crypto'
import t from 'tap'
import {
  DEFAULT_SHA3_CORE, getSha3Core, sha3_256, sha3_256Hex, sha3_512, sha3_512Hex
} from '../../../core/crypto/sha3.ts'
import type { CoreKind } from '../../../core/crypto/sha3.ts'
import { inputBytes, loadSha3Vectors } from './sha3-vectors.ts'
import { seededBytes, seededRandom } from '../../helpers/random.ts'

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')
const vectors = loadSha3Vectors()
const kinds: CoreKind[] = ['wasm', 'js']

t.test('the vector file holds the NIST examples and the rate boundaries', async (t) => {
  t.ok(vectors.filter((v) => v.source === 'NIST').length >= 6)
  const lengths = new Set(vectors.map((v) => inputBytes(v.input).length))
  for (const n of [0, 3, 200, 1_000_000, 71, 72, 73, 135, 136, 137, 143, 144, 145]) t.ok(lengths.has(n), `has a ${n}-byte input`)
  // node:crypto (OpenSSL) is an implementation independent of both cores
  for (const v of vectors) {
    const data = inputBytes(v.input)
    t.equal(crypto.hash('sha3-256', data), v.sha3_256, `node:crypto sha3-256 ${v.name}`)
    t.equal(crypto.hash('sha3-512', data), v.sha3_512, `node:crypto sha3-512 ${v.name}`)
  }
})

for (const kind of kinds) {
  t.test(`${kind} core passes every vector`, async (t) => {
    const core = getSha3Core(kind)
    t.equal(core.kind, kind)
    for (const v of vectors) {
      const data = inputBytes(v.input)
      t.equal(hex(core.sha3_256(data)), v.sha3_256, `sha3-256 ${v.name}`)
      t.equal(hex(core.sha3_512(data)), v.sha3_512, `sha3-512 ${v.name}`)
    }
  })
}

t.test('wasm and js cores agree on random inputs of random lengths', async (t) => {
  const seed = 20240601
  const random = seededRandom(seed)
  const wasm = getSha3Core('wasm')
  const js = getSha3Core('js')
  let disagreements = 0
  for (let i = 0; i < 300; i++) {
    const data = new Uint8Array(Math.floor(random() * 5001))
    for (let j = 0; j < data.length; j++) data[j] = random() * 256
    if (hex(wasm.sha3_256(data)) !== hex(js.sha3_256(data))) { disagreements++; t.fail(`sha3-256 seed ${seed} input ${i}, ${data.length} bytes`) }
    if (hex(wasm.sha3_512(data)) !== hex(js.sha3_512(data))) { disagreements++; t.fail(`sha3-512 seed ${seed} input ${i}, ${data.length} bytes`) }
  }
  t.equal(disagreements, 0)
})

t.test('views into a larger buffer hash only their own bytes', async (t) => {
  const backing = seededBytes('sha3 views', 5000)
  for (const kind of kinds) {
    const core = getSha3Core(kind)
    for (const [start, end] of [[1, 2], [3, 140], [77, 4999]] as const) {
      const view = backing.subarray(start, end)
      t.equal(hex(core.sha3_512(view)), crypto.hash('sha3-512', view), `${kind} sha3-512 [${start}, ${end})`)
      t.equal(hex(core.sha3_256(view)), crypto.hash('sha3-256', view), `${kind} sha3-256 [${start}, ${end})`)
    }
  }
})

t.test('digests are fresh arrays the next hash does not overwrite', async (t) => {
  for (const kind of kinds) {
    const core = getSha3Core(kind)
    const first = core.sha3_512(Buffer.from('first'))
    const copy = hex(first)
    core.sha3_512(Buffer.from('second'))
    t.equal(hex(first), copy, kind)
  }
})

t.test('helpers: wasm by default, the core the caller passes otherwise, strings hashed as UTF-8', async (t) => {
  t.equal(DEFAULT_SHA3_CORE.kind, 'wasm')
  t.equal(sha3_256Hex('abc'), '3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532')
  for (const kind of kinds) {
    const core = getSha3Core(kind)
    t.equal(sha3_256Hex('abc', core), '3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532')
    t.equal(sha3_512Hex('héllo', core), crypto.hash('sha3-512', Buffer.from('héllo', 'utf8')))
    t.equal(hex(sha3_256(Buffer.from('abc'), core)), sha3_256Hex('abc', core))
    t.equal(sha3_512(new Uint8Array(0), core).length, 64)
  }
  t.throws(() => getSha3Core('gpu' as CoreKind), RangeError)
  t.throws(() => getSha3Core('toString' as CoreKind), RangeError)
})
