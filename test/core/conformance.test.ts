// The conformance harness: every registered core of every family (core/cores/cores.ts,
// CORE_FAMILIES) against that family's one vector file under test/vectors/. A core added to a
// registry is picked up here without touching this file; a family added without a vector
// runner fails the first test.
import crypto from 'node:crypto'
import { readFileSync } from 'node:fs'
import t from 'tap'
import type { Test } from 'tap'
import { CORE_FAMILIES, coreFamilies } from '../../core/cores/cores.ts'
import type { CoreFamily } from '../../core/cores/cores.ts'
import type { Sha3Core } from '../../core/crypto/sha3.ts'
import type { PowCore } from '../../core/pow/pow-core.ts'
import { meetsTarget } from '../../core/pow/pow-core.ts'
import { bitsTargetBytes } from '../../core/chain/target.ts'
import type { Interpreter } from '../../core/vm/interpreter.ts'
import type { MldsaCore } from '../../core/crypto/mldsa.ts'
import type { BeaconPairingInput, BlsCore } from '../../core/crypto/bls.ts'
import type { DrandScheme } from '../../core/entropy/drand-schemes.ts'
import { batchPairingHolds } from '../../core/entropy/beacon-batch.ts'
import { inputBytes, loadSha3Vectors } from './crypto/sha3-vectors.ts'
import { runCase } from './vm/conformance/run.ts'
import type { VectorFile as VmVectorFile } from './vm/conformance/run.ts'

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')
const bytes = (h: string): Buffer => Buffer.from(h, 'hex')
const load = <T> (name: string): T => JSON.parse(readFileSync(new URL(`../vectors/${name}`, import.meta.url), 'utf8')) as T

interface PowVectors {
  hashes: Array<{ prefix: string; nonce: number; hash: string }>
  searches: Array<{ prefix: string; start: number; count: number; target: string; found: boolean; nonce: number; hash: string | null; note: string }>
  headers: Array<{ name: string; header: string; bits: number; target: string; hash: string; meets: boolean }>
}

interface MldsaVectors {
  keys: Array<{ label: string; seed: string; public_key: string }>
  signatures: Array<{ name: string; key: number; message: string; signature: string }>
  rejects: Array<{ name: string; signature: number; flip?: { field: 'signature' | 'message' | 'public_key'; byte: number }; truncate?: boolean; key?: number }>
}

interface BlsVectors {
  cases: Array<{ name: string; scheme: DrandScheme; public_key: string; message: string; signature: string; verifies: boolean }>
  batches: Array<{ name: string; cases: number[]; verifies: boolean }>
}

/** One runner per family: the family's vector file, run on one core. */
const runners: { [F in CoreFamily]: { file: string; run: (t: Test, core: (typeof CORE_FAMILIES)[F][keyof (typeof CORE_FAMILIES)[F]]) => void | Promise<void> } } = {
  sha3: {
    file: 'sha3.json',
    run (t, core: Sha3Core) {
      const vectors = loadSha3Vectors()
      t.ok(vectors.length >= 20, `${vectors.length} vectors`)
      for (const v of vectors) {
        const input = inputBytes(v.input)
        t.equal(hex(core.sha3_256(input)), v.sha3_256, `SHA3-256 ${v.name}`)
        t.equal(hex(core.sha3_512(input)), v.sha3_512, `SHA3-512 ${v.name}`)
      }
    }
  },
  pow: {
    file: 'pow.json',
    run (t, core: PowCore) {
      const v = load<PowVectors>('pow.json')
      t.ok(v.hashes.length > 0 && v.searches.length > 0 && v.headers.length > 0, 'hashes, searches and headers')
      for (const h of v.hashes) t.equal(hex(core.hashHeader(bytes(h.prefix), h.nonce)), h.hash, `hash: prefix ${h.prefix.length / 2} bytes, nonce ${h.nonce}`)
      for (const s of v.searches) {
        const r = core.search(bytes(s.prefix), s.start, s.count, bytes(s.target))
        t.same({ found: r.found, nonce: r.nonce, hash: r.hash === null ? null : hex(r.hash) }, { found: s.found, nonce: s.nonce, hash: s.hash }, `search from ${s.start}: ${s.note}`)
      }
      for (const h of v.headers) {
        const header = bytes(h.header)
        const prefix = header.subarray(0, header.length - 8)
        const nonce = Number(header.readBigUInt64BE(header.length - 8))
        const hash = core.hashHeader(prefix, nonce)
        t.equal(hex(hash), h.hash, `header ${h.name}: hash`)
        t.equal(hex(bitsTargetBytes(h.bits)), h.target, `header ${h.name}: bits ${h.bits.toString(16)} stand for the target`)
        t.equal(header.readUInt32BE(148), h.bits, `header ${h.name}: bits at offset 148`)
        t.equal(meetsTarget(hash, bytes(h.target)), h.meets, `header ${h.name}: ${h.meets ? 'meets' : 'misses'} its target`)
        // a search over the header's own nonce finds it exactly when it meets the target
        t.equal(core.search(prefix, nonce, 1, bytes(h.target)).found, h.meets, `header ${h.name}: search agrees`)
      }
    }
  },
  vm: {
    file: 'vm-conformance.json',
    run (t, core: Interpreter) {
      const file = load<VmVectorFile>('vm-conformance.json')
      t.ok(file.cases.length >= 60, `${file.cases.length} cases`)
      for (const c of file.cases) t.strictSame(runCase(c, file.env, core), c.expect, c.name)
    }
  },
  mldsa: {
    file: 'mldsa.json',
    run (t, core: MldsaCore) {
      const v = load<MldsaVectors>('mldsa.json')
      for (const k of v.keys) t.equal(hex(core.keygen(bytes(k.seed)).publicKey), k.public_key, `keygen: ${k.label}`)
      for (const s of v.signatures) {
        t.ok(core.verify(bytes(v.keys[s.key]!.public_key), bytes(s.message), bytes(s.signature)), `verifies: ${s.name}`)
      }
      for (const r of v.rejects) {
        const s = v.signatures[r.signature]!
        const fields = { public_key: bytes(v.keys[r.key ?? s.key]!.public_key), message: bytes(s.message), signature: bytes(s.signature) }
        if (r.flip !== undefined) fields[r.flip.field][r.flip.byte]! ^= 0x01
        if (r.truncate === true) fields.signature = fields.signature.subarray(0, fields.signature.length - 1)
        t.notOk(core.verify(fields.public_key, fields.message, fields.signature), `refuses: ${r.name}`)
      }
      // signing is hedged (randomised), so no signature is a known answer: every core must
      // accept what this core signs, and refuse it for another message
      for (const s of v.signatures) {
        const key = v.keys[s.key]!
        const signature = core.sign(bytes(key.seed), bytes(s.message))
        for (const [name, other] of Object.entries(CORE_FAMILIES.mldsa)) {
          t.ok(other.verify(bytes(key.public_key), bytes(s.message), signature), `${name} verifies its signature: ${s.name}`)
          t.notOk(other.verify(bytes(key.public_key), crypto.randomBytes(33), signature), `${name} refuses it for another message: ${s.name}`)
        }
      }
    }
  },
  bls: {
    file: 'bls.json',
    async run (t, core: BlsCore) {
      await core.ready()
      const v = load<BlsVectors>('bls.json')
      const inputs: BeaconPairingInput[] = v.cases.map((c) => ({ scheme: c.scheme, publicKey: bytes(c.public_key), message: bytes(c.message), signature: bytes(c.signature), randomness: new Uint8Array(32) }))
      t.ok(v.cases.filter((c) => c.verifies).length >= 20 && v.cases.some((c) => !c.verifies), 'real rounds and forgeries')
      v.cases.forEach((c, i) => t.equal(core.pairingHolds(inputs[i]!), c.verifies, `${c.verifies ? 'verifies' : 'refuses'}: ${c.name}`))
      for (const b of v.batches) {
        // scalars from a seeded stream: the verdict must not depend on them
        let seed = 1
        const random = (n: number): Uint8Array => Uint8Array.from({ length: n }, () => { seed = (seed * 1103515245 + 12345) >>> 0; return seed >>> 24 })
        t.equal(batchPairingHolds(core, b.cases.map((i) => inputs[i]!), random), b.verifies, `batch ${b.verifies ? 'verifies' : 'refuses'}: ${b.name}`)
      }
    }
  }
}

t.test('every family has a vector file and a runner', async (t) => {
  t.same(Object.keys(runners).sort(), coreFamilies().sort())
  for (const family of coreFamilies()) {
    t.ok(Object.keys(CORE_FAMILIES[family]).length >= 2, `${family}: at least a core and its twin`)
    t.doesNotThrow(() => load(runners[family].file), `${family}: test/vectors/${runners[family].file} parses`)
  }
})

for (const family of coreFamilies()) {
  for (const [name, core] of Object.entries(CORE_FAMILIES[family])) {
    t.test(`${family}=${name} against test/vectors/${runners[family].file}`, async (t) => {
      await (runners[family].run as (t: Test, core: unknown) => void | Promise<void>)(t, core)
    })
  }
}
