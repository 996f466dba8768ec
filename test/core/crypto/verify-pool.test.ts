import t from 'tap'
import crypto, { createHash } from 'node:crypto'
import { SignatureVerifyPool } from '../../../core/crypto/verify-pool.ts'
import type { SignatureCheck } from '../../../core/crypto/verify-pool.ts'
import { getMldsaCore } from '../../../core/crypto/mldsa.ts'
import type { MldsaCoreKind } from '../../../core/crypto/mldsa.ts'
import { beaconPairingsOf } from '../../../core/chain/attestation.ts'
import { DEVNET_BEACON } from '../../../config/entropy-sources.ts'
import type { Block } from '../../../core/chain/types.ts'
import { makeAttestation, testParams } from '../../helpers/chain.ts'

function checks (n: number): { good: SignatureCheck[]; expected: boolean[] } {
  const native = getMldsaCore('native')
  const keys = [native.keygen(), native.keygen()]
  const good: SignatureCheck[] = []
  const expected: boolean[] = []
  for (let i = 0; i < n; i++) {
    const k = keys[i % 2]!
    const message = Buffer.from(`message ${i}`)
    const signature = native.sign(k.seed, message)
    // every third check is broken a different way: wrong key, tampered message, cut signature
    const broken = i % 3 === 2
    const variant = i % 9
    good.push({
      publicKey: broken && variant === 2 ? keys[(i + 1) % 2]!.publicKey : k.publicKey,
      message: broken && variant === 5 ? Buffer.from(`message ${i}!`) : message,
      signature: broken && variant === 8 ? signature.subarray(0, 100) : signature
    })
    expected.push(!broken)
  }
  return { good, expected }
}

for (const core of ['native', 'noble', 'wasm'] as MldsaCoreKind[]) {
  t.test(`${core}: results in order across threads, bad checks false`, async (t) => {
    const pool = new SignatureVerifyPool({ core, threads: 2 })
    t.teardown(() => pool.close())
    const n = core === 'native' ? 23 : 7
    const { good, expected } = checks(n)
    t.same(await pool.verifyAll(good), expected)
    t.same(await pool.verifyAll([]), [])
    t.same(await pool.verifyAll(good.slice(0, 1)), expected.slice(0, 1), 'fewer checks than threads')
  })
}

t.test('signatures as hex text, decoded when packed; text that is not hex fails; results by index whatever thread took them', async (t) => {
  const pool = new SignatureVerifyPool({ core: 'native', threads: 2 })
  t.teardown(() => pool.close())
  const { good, expected } = checks(41)
  const hex = good.map((c, i) => ({ ...c, signature: i % 4 === 1 ? Buffer.from(c.signature as Uint8Array).toString('hex') : c.signature }))
  t.same(await pool.verifyAll(hex), expected)
  const first = hex[0]!
  const text = Buffer.from(first.signature as Uint8Array).toString('hex')
  const notHex = [{ ...first, signature: text.slice(0, 100) + 'zz' + text.slice(102) }, { ...first, signature: text.slice(1) }, first, first]
  t.same(await pool.verifyAll(notHex), [false, false, true, true])
})

t.test('a closed pool refuses work and fails what was in flight', async (t) => {
  const pool = new SignatureVerifyPool({ core: 'native', threads: 1 })
  const { good } = checks(4)
  const inFlight = t.rejects(pool.verifyAll(good), /closed/)
  await pool.close()
  await inFlight
  await t.rejects(pool.verifyAll(good), /closed/)
  await pool.close()
})

t.test('an idle pool does not keep the process alive (the test ends)', async (t) => {
  const pool = new SignatureVerifyPool({ core: 'native', threads: 2 })
  const { good, expected } = checks(4)
  t.same(await pool.verifyAll(good), expected)
  // deliberately not closed: tap would time out if the idle workers held the event loop
})

t.test('assist: the calling thread verifies unclaimed checks beside the threads, same results', async (t) => {
  const pool = new SignatureVerifyPool({ core: 'native', threads: 1 })
  t.teardown(() => pool.close())
  const { good, expected } = checks(30)
  t.equal(pool.assist(), 0, 'nothing in flight')
  const results = pool.verifyAll(good)
  // the job is packed by now; the thread has only just been sent it
  const mine = pool.assist()
  t.ok(mine > 0 && mine <= 30, `the caller verified some checks (${mine})`)
  t.same(await results, expected)
  t.equal(pool.assist(), 0, 'nothing left once answered')
})

t.test('a beacon job sent during a block\'s checks is answered between two checks, not after the last', async (t) => {
  const pool = new SignatureVerifyPool({ core: 'native', threads: 1 })
  t.teardown(() => pool.close())
  const base = DEVNET_BEACON.pin.genesisTime + 300 * 24 * 3600
  const inputs = beaconPairingsOf(testParams(), [{ quantum_signature: { qrng_attestation: makeAttestation(base) } } as Block]).map((w) => w.input)
  t.same(await pool.verifyBeacons(inputs), [true], 'the BLS core is loaded')
  const { good, expected } = checks(40)
  const order: string[] = []
  const sigs = pool.verifyAll(good).then((r) => { order.push('ml-dsa'); return r })
  const beacon = pool.verifyBeacons(inputs).then((r) => { order.push('beacon'); return r })
  t.same(await sigs, expected)
  t.same(await beacon, [true])
  t.same(order, ['beacon', 'ml-dsa'])
})

t.test('digestAll: SHA3-512 of each input on the threads, in order, with the caller assisting', async (t) => {
  const pool = new SignatureVerifyPool({ core: 'native', threads: 2, sha3: 'js' })
  t.teardown(() => pool.close())
  const inputs = Array.from({ length: 37 }, (_, i) => crypto.randomBytes(i * 131))
  const digests = pool.digestAll(inputs)
  pool.assist()
  t.same((await digests).map((d) => Buffer.from(d).toString('hex')), inputs.map((b) => createHash('sha3-512').update(b).digest('hex')))
  t.same(await pool.digestAll([]), [])
  t.throws(() => new SignatureVerifyPool({ core: 'native', sha3: 'md5' as 'js' }), RangeError)
})

t.test('jobs after jobs: buffers reused across blocks of different sizes give the same verdicts', async (t) => {
  const pool = new SignatureVerifyPool({ core: 'wasm', threads: 2 })
  t.teardown(() => pool.close())
  const { good, expected } = checks(30)
  for (const n of [30, 5, 30, 12, 29]) {
    const inputs = Array.from({ length: n }, (_, i) => crypto.randomBytes(100 + i))
    const [verdicts, digests] = await Promise.all([pool.verifyAll(good.slice(0, n)), pool.digestAll(inputs)])
    t.same(verdicts, expected.slice(0, n))
    t.same(digests.map((d) => Buffer.from(d).toString('hex')), inputs.map((b) => createHash('sha3-512').update(b).digest('hex')))
  }
})

t.test('a block\'s checks do not wait for a batch of beacon rounds the beacon thread is pairing', async (t) => {
  const pool = new SignatureVerifyPool({ core: 'native', threads: 2 })
  t.teardown(() => pool.close())
  await pool.started()
  const base = DEVNET_BEACON.pin.genesisTime + 300 * 24 * 3600
  // a prefetched response's rounds: dozens of pairings, far longer than a few ML-DSA checks
  const blocks = Array.from({ length: 40 }, (_, i) => ({ quantum_signature: { qrng_attestation: makeAttestation(base + 3 * i) } }) as Block)
  const inputs = beaconPairingsOf(testParams(), blocks).map((w) => w.input)
  t.ok(inputs.length >= 30, `${inputs.length} rounds to pair`)
  const { good, expected } = checks(8)
  const order: string[] = []
  const beacon = pool.verifyBeacons(inputs).then((r) => { order.push('beacon'); return r })
  const sigs = pool.verifyAll(good).then((r) => { order.push('ml-dsa'); return r })
  t.same(await sigs, expected)
  t.same(await beacon, inputs.map(() => true))
  t.same(order, ['ml-dsa', 'beacon'], 'the checks went to the other thread and were answered first')
  // once the batch is answered the beacon thread takes shared jobs again
  t.same(await pool.verifyAll(good), expected)
})

t.test('started(): every thread up and the BLS core loaded before it resolves', async (t) => {
  const pool = new SignatureVerifyPool({ core: 'native', threads: 2 })
  t.teardown(() => pool.close())
  await pool.started()
  const base = DEVNET_BEACON.pin.genesisTime + 300 * 24 * 3600
  const inputs = beaconPairingsOf(testParams(), [{ quantum_signature: { qrng_attestation: makeAttestation(base) } } as Block]).map((w) => w.input)
  t.same(await pool.verifyBeacons(inputs), [true])
  await pool.close()
  await pool.started() // a closed pool starts nothing and does not hang
})
