// Every block rule: a block that breaks exactly that rule is refused with its code, and the
// node stays where it was.
import t from 'tap'
import type { Test } from 'tap'
import crypto from 'node:crypto'
import { openTestChain, mineBlock, sealWithoutPow, makeAttestation, rederive, transfer, devWallet, generateWallet, cleanup, testParams } from '../../helpers/chain.ts'
import { DEVNET_BEACON } from '../../../config/entropy-sources.ts'
import { devnetRound } from '../../../core/entropy/devnet-beacon.ts'
import { beaconSigner } from '../../../core/entropy/beacon-signer.ts'
import type { TestChain } from '../../helpers/chain.ts'
import { BlockError, BlockErrorCode } from '../../../core/chain/errors.ts'
import type { BlockErrorCode as BlockCode } from '../../../core/chain/errors.ts'
import type { Attestation, BeaconEvidence, Block, Transaction } from '../../../core/chain/types.ts'
import { MINING_REWARD_SENDER } from '../../../core/chain/types.ts'
import { merkleRoot } from '../../../core/chain/merkle.ts'
import { systemTransaction, txId } from '../../../core/chain/tx.ts'
import { commitmentOf } from '../../../core/chain/attestation.ts'
import { coinToBohm } from '../../../core/chain/money.ts'
import { NETWORKS } from '../../../config/networks.ts'
import { seededBytes } from '../../helpers/random.ts'

const dev = devWallet()

async function refused (t: Test, tc: TestChain, block: unknown, code: BlockCode, reason?: RegExp): Promise<void> {
  const tip = tc.chain.tip().hash
  const supply = tc.chain.totalSupply()
  try {
    await tc.chain.processBlock(block as Block, 'test')
    t.fail(`expected ${code}`)
  } catch (err) {
    if (!(err instanceof BlockError)) { t.fail(`expected ${code}, got ${String(err)}`); return }
    t.equal(err.code, code, reason === undefined ? code : `${code} ${reason.source}`)
    if (reason !== undefined) t.match(err.message, reason)
  }
  t.equal(tc.chain.tip().hash, tip, 'tip unchanged')
  t.equal(tc.chain.totalSupply(), supply, 'supply unchanged')
}

/** Re-derives the merkle root after the transaction list was edited (so only the edited rule breaks). */
const remerkle = (b: Block): void => { b.merkle_root = merkleRoot(b.transactions) }

/** A coinbase rebuilt with one field changed and its id recomputed, so only the coinbase rule breaks. */
function recoinbase (chainId: string, b: Block, change: Partial<Transaction>): void {
  const cb = b.transactions[0] as Transaction
  const fields = { sender: cb.sender, recipient: cb.recipient, amount: cb.amount, fee: cb.fee, timestamp: cb.timestamp, nonce: cb.nonce, data: cb.data, ...change }
  b.transactions[0] = { ...systemTransaction(chainId, fields), signature: change.signature ?? '' }
  remerkle(b)
}

t.test('block rules', async (t) => {
  const tc = await openTestChain(testParams({ maxTxPerBlock: 3 }))
  t.teardown(async () => { await tc.close(); cleanup(tc.dir) })
  const p = tc.params
  const alice = generateWallet()
  const bob = generateWallet()

  // Height 1 funds alice (her key stays unknown to the chain until she sends).
  await tc.chain.processBlock(mineBlock(p, tc.tipRef(), { txs: [transfer(p, dev, alice.address, 10, 0)] }), 'test')
  t.equal(tc.chain.tip().height, 1)
  const next = (opts: Parameters<typeof mineBlock>[2] = {}): Block => mineBlock(p, tc.tipRef(), opts)

  t.test('BAD_FORMAT', async (t) => {
    const good = next()
    const variants: Array<[string, unknown]> = [
      ['null', null],
      ['a string', 'block'],
      ['height as text', { ...good, height: '2' }],
      ['negative nonce', { ...good, nonce: -1 }],
      ['fractional difficulty', { ...good, difficulty: 1.5 }],
      ['bits missing', { ...good, bits: undefined }],
      ['bits as hex text', { ...good, bits: good.bits.toString(16) }],
      ['bits past 2^32', { ...good, bits: 2 ** 32 + good.bits }],
      ['non-canonical bits (a zero leading mantissa byte)', { ...good, bits: 0x4100ffff }],
      ['non-canonical bits (E − 1, mantissa shifted: the same target spelled otherwise)', { ...good, bits: 0x3f00ffff }],
      ['bits exponent below 3', { ...good, bits: 0x02ffffff }],
      ['timestamp as text', { ...good, timestamp: String(good.timestamp) }],
      ['short hash', { ...good, hash: good.hash.slice(2) }],
      ['upper-case previous_hash', { ...good, previous_hash: good.previous_hash.toUpperCase() }],
      ['merkle_root missing', { ...good, merkle_root: undefined }],
      ['miner as VM address', { ...good, miner: dev.vmAddress }],
      ['transactions not an array', { ...good, transactions: {} }],
      ['a null transaction', { ...good, transactions: [...good.transactions, null] }],
      ['quantum_signature as text', { ...good, quantum_signature: 'sig' }]
    ]
    for (const [name, block] of variants) await refused(t, tc, block, BlockErrorCode.BAD_FORMAT).then(() => t.pass(name))
  })

  t.test('BAD_VERSION', async (t) => {
    await refused(t, tc, next({ tamper: (b) => { b.version = 1 } }), BlockErrorCode.BAD_VERSION, /version 1 unsupported/)
    await refused(t, tc, next({ tamper: (b) => { b.version = 3 } }), BlockErrorCode.BAD_VERSION, /version 3 unsupported/)
  })

  t.test('BAD_HEIGHT and PARENT_UNKNOWN (parent linkage)', async (t) => {
    await refused(t, tc, next({ tamper: (b) => { b.height += 1 } }), BlockErrorCode.BAD_HEIGHT, /parent height \+ 1/)
    await refused(t, tc, next({ tamper: (b) => { b.height = 1 } }), BlockErrorCode.BAD_HEIGHT)
    await refused(t, tc, next({ tamper: (b) => { b.previous_hash = seededBytes('unknown parent', 64).toString('hex') } }), BlockErrorCode.PARENT_UNKNOWN, /unknown/)
  })

  t.test('BAD_HASH', async (t) => {
    const b = next()
    const last = b.hash.at(-1) === '0' ? '1' : '0'
    await refused(t, tc, { ...b, hash: b.hash.slice(0, -1) + last }, BlockErrorCode.BAD_HASH, /not SHA3-512 of the header/)
    await refused(t, tc, { ...b, nonce: b.nonce + 1 }, BlockErrorCode.BAD_HASH)
    await refused(t, tc, { ...b, miner: bob.address }, BlockErrorCode.BAD_HASH, undefined)
  })

  t.test('BAD_POW', async (t) => {
    const b = sealWithoutPow(next())
    await refused(t, tc, b, BlockErrorCode.BAD_POW, /hash is above the target/)
  })

  t.test('work before any other rule: a block without work is refused for it, whatever else it breaks', async (t) => {
    const parent = tc.tipRef()
    const stale = sealWithoutPow(next({ timestamp: parent.timestamp - 1 }))
    await refused(t, tc, stale, BlockErrorCode.BAD_POW)
    const wrongDifficulty = sealWithoutPow(next({ difficulty: 2 }))
    await refused(t, tc, wrongDifficulty, BlockErrorCode.BAD_POW)
    const wrongVersion = sealWithoutPow(next({ tamper: (b) => { b.version = 2 } }))
    await refused(t, tc, wrongVersion, BlockErrorCode.BAD_POW)
  })

  t.test('BAD_DIFFICULTY', async (t) => {
    // this network's target is fixed at difficulty 1: bits either side are outside its bounds
    await refused(t, tc, next({ difficulty: 2 }), BlockErrorCode.BAD_DIFFICULTY, /outside the network's bounds/)
    await refused(t, tc, next({ bits: 0x40ffffff }), BlockErrorCode.BAD_DIFFICULTY, /outside the network's bounds/)
    // the right bits, a difficulty that is not their leading zero count (difficulty is not hashed)
    await refused(t, tc, next({ tamper: (b) => { b.difficulty = 2 } }), BlockErrorCode.BAD_DIFFICULTY, /difficulty 2, its target has 1 leading zero/)
    await refused(t, tc, { ...next(), difficulty: 0 }, BlockErrorCode.BAD_DIFFICULTY, /difficulty 0, its target has 1/)
  })

  t.test('BAD_TIMESTAMP', async (t) => {
    const parent = tc.tipRef()
    await refused(t, tc, next({ timestamp: parent.timestamp }), BlockErrorCode.BAD_TIMESTAMP, /later than the parent/)
    await refused(t, tc, next({ timestamp: parent.timestamp - 1 }), BlockErrorCode.BAD_TIMESTAMP, /later than the parent/)
    await refused(t, tc, next({ timestamp: Date.now() / 1000 + p.maxFutureDrift + 600 }), BlockErrorCode.BAD_TIMESTAMP, /in the future/)
  })

  t.test('BAD_MERKLE_ROOT', async (t) => {
    const tx = transfer(p, dev, bob.address, 1, 1)
    await refused(t, tc, next({ txs: [tx], tamper: (b) => { b.transactions.pop() } }), BlockErrorCode.BAD_MERKLE_ROOT, /does not match/)
    await refused(t, tc, next({ tamper: (b) => { b.merkle_root = merkleRoot([]) } }), BlockErrorCode.BAD_MERKLE_ROOT)
    const tx2 = transfer(p, dev, bob.address, 1, 2)
    await refused(t, tc, next({ txs: [tx, tx2], tamper: (b) => { b.transactions.reverse(); b.transactions.unshift(...b.transactions.splice(2, 1)) } }),
      BlockErrorCode.BAD_MERKLE_ROOT, undefined)
  })

  t.test('TOO_MANY_TXS', async (t) => {
    const txs = [1, 2, 3, 4].map((n) => transfer(p, dev, bob.address, 1, n))
    await refused(t, tc, next({ txs }), BlockErrorCode.TOO_MANY_TXS, /more than 3 transactions/)
  })

  t.test('BAD_COINBASE', async (t) => {
    await refused(t, tc, next({ tamper: (b) => { b.transactions = []; remerkle(b) } }), BlockErrorCode.BAD_COINBASE, /first transaction must be the coinbase/)
    const tx = transfer(p, dev, bob.address, 1, 1)
    await refused(t, tc, next({ txs: [tx], tamper: (b) => { b.transactions.shift(); remerkle(b) } }), BlockErrorCode.BAD_COINBASE, /first transaction must be the coinbase/)
    await refused(t, tc, next({ tamper: (b) => { recoinbase(p.chainId, b, { recipient: bob.address }) } }), BlockErrorCode.BAD_COINBASE, /must pay the block miner/)
    await refused(t, tc, next({ tamper: (b) => { recoinbase(p.chainId, b, { nonce: 7 }) } }), BlockErrorCode.BAD_COINBASE, /nonce = height/)
    await refused(t, tc, next({ tamper: (b) => { recoinbase(p.chainId, b, { fee: 0.001 }) } }), BlockErrorCode.BAD_COINBASE, /fee 0/)
    await refused(t, tc, next({ tamper: (b) => { recoinbase(p.chainId, b, { data: { memo: 'mine' } }) } }), BlockErrorCode.BAD_COINBASE, /empty data/)
    await refused(t, tc, next({ tamper: (b) => { recoinbase(p.chainId, b, { signature: 'ab' }) } }), BlockErrorCode.BAD_COINBASE, /no signature/)
    await refused(t, tc, next({ tamper: (b) => { (b.transactions[0] as Transaction).transaction_id = txId(p.chainId, tx); remerkle(b) } }), BlockErrorCode.BAD_COINBASE)
    // subsidy 5 + fees 0.001 = 5.001 may be claimed, not a bohm more
    await refused(t, tc, next({ txs: [tx], coinbaseAmount: 5.0011 }), BlockErrorCode.BAD_COINBASE, /more than subsidy \+ fees/)
    await refused(t, tc, next({ coinbaseAmount: 5.000000000000001 }), BlockErrorCode.BAD_COINBASE, /more than subsidy \+ fees/)
    await refused(t, tc, next({ coinbaseAmount: -5 }), BlockErrorCode.BAD_COINBASE, /coinbase amount/)
    const second = systemTransaction(p.chainId, { sender: MINING_REWARD_SENDER, recipient: dev.address, amount: 1, fee: 0, timestamp: 1, nonce: 99, data: {} })
    await refused(t, tc, next({ tamper: (b) => { b.transactions.push(second); remerkle(b) } }), BlockErrorCode.BAD_COINBASE, /only the first transaction may be a coinbase/)
  })

  t.test('BAD_TX inside a block', async (t) => {
    const good = transfer(p, dev, bob.address, 1, 1)
    const flipped = good.signature.slice(0, 10) + (good.signature[10] === 'a' ? 'b' : 'a') + good.signature.slice(11)
    await refused(t, tc, next({ txs: [{ ...good, signature: flipped }] }), BlockErrorCode.BAD_TX, /transaction 1: .*TX_ERROR_BAD_SIGNATURE/)
    await refused(t, tc, next({ txs: [transfer(p, dev, bob.address, 1, 5)] }), BlockErrorCode.BAD_TX, /nonce 5 but the sender's next nonce is 1.*TX_ERROR_BAD_NONCE/)
    await refused(t, tc, next({ txs: [transfer(p, dev, bob.address, 1, 0)] }), BlockErrorCode.BAD_TX, /TX_ERROR_(BAD_NONCE|ALREADY_CONFIRMED)/)
    // alice holds 10: each transfer alone fits, the second does not after the first
    const a0 = transfer(p, alice, bob.address, 6, 0)
    const a1 = transfer(p, alice, bob.address, 6, 1)
    await refused(t, tc, next({ txs: [a0, a1] }), BlockErrorCode.BAD_TX, /transaction 2: balance does not cover.*TX_ERROR_INSUFFICIENT_BALANCE/)
    await refused(t, tc, next({ txs: [transfer(p, alice, bob.address, 1, 0, { withKey: false })] }), BlockErrorCode.BAD_TX, /TX_ERROR_UNKNOWN_KEY/)
    await refused(t, tc, next({ txs: [transfer(p, dev, bob.address, 1, 1, { fee: 0.00001 })] }), BlockErrorCode.BAD_TX, /TX_ERROR_FEE_TOO_LOW/)
    await refused(t, tc, next({ txs: [{ ...good, amount: 2 }] }), BlockErrorCode.BAD_TX, /TX_ERROR_BAD_ID/)

    // A state-invalid block is remembered: sent again, or built upon, it is refused at once.
    const bad = next({ txs: [a0, a1] })
    await refused(t, tc, bad, BlockErrorCode.BAD_TX)
    await refused(t, tc, bad, BlockErrorCode.BAD_TX, /already found invalid/)
    const child = mineBlock(p, { hash: bad.hash, height: bad.height, timestamp: bad.timestamp })
    await refused(t, tc, child, BlockErrorCode.BAD_TX, /parent block is invalid/)
    t.equal(tc.chain.getAccount(alice.address).balance, coinToBohm(10), 'alice untouched')
  })

  t.test('DUPLICATE_TX', async (t) => {
    const tx = transfer(p, dev, bob.address, 1, 1)
    await refused(t, tc, next({ txs: [tx, tx] }), BlockErrorCode.DUPLICATE_TX, /appears twice/)
  })

  t.test('attestation rules (SPEC 2.8)', async (t) => {
    const ts = tc.tipRef().timestamp + 1
    await refused(t, tc, next({ attestation: null }), BlockErrorCode.ATTESTATION_MISSING)
    // Malformed envelopes cannot be laid into a header at all: refused as such, not as a crash.
    await refused(t, tc, { ...next(), quantum_signature: {} }, BlockErrorCode.ATTESTATION_MISSING)
    await refused(t, tc, { ...next(), quantum_signature: { qrng_attestation: null } }, BlockErrorCode.ATTESTATION_MISSING)

    const shortProof = makeAttestation(ts)
    shortProof.entropy_proof = shortProof.entropy_proof.slice(0, 62)
    shortProof.commitment = commitmentOf(shortProof.entropy_proof)
    await refused(t, tc, next({ attestation: shortProof }), BlockErrorCode.ATTESTATION_INSUFFICIENT_ENTROPY)
    const shortSeed = next()
    const env = shortSeed.quantum_signature?.qrng_attestation
    if (env !== undefined) env.entropy_seed = env.entropy_seed.slice(0, 62)
    await refused(t, tc, shortSeed, BlockErrorCode.ATTESTATION_INSUFFICIENT_ENTROPY)
    const numericSeed = next()
    if (numericSeed.quantum_signature !== null) (numericSeed.quantum_signature.qrng_attestation as { entropy_seed: unknown }).entropy_seed = 42
    await refused(t, tc, numericSeed, BlockErrorCode.ATTESTATION_INSUFFICIENT_ENTROPY)

    await refused(t, tc, next({ attestation: makeAttestation(ts, { source: 'coin-flip' }) }), BlockErrorCode.ATTESTATION_UNREGISTERED_SOURCE, /'coin-flip' is not registered/)
    await refused(t, tc, next({ attestation: makeAttestation(ts, { source: 'aggregator:beacon-default+coin-flip' }) }), BlockErrorCode.ATTESTATION_UNREGISTERED_SOURCE)
    await refused(t, tc, next({ attestation: makeAttestation(ts, { source: 'hardware-qrng-v1' }) }), BlockErrorCode.ATTESTATION_UNTRUSTED_SOURCE)

    const badCommit = makeAttestation(ts)
    badCommit.commitment = commitmentOf(badCommit.entropy_seed)
    await refused(t, tc, next({ attestation: badCommit }), BlockErrorCode.ATTESTATION_BAD_COMMITMENT)

    // claimed statistics that differ from those of the revealed bytes are a lie, whatever their value
    for (const health of [{ monobit_ratio: 0.3 }, { fano_factor: 2 }]) {
      await refused(t, tc, next({ attestation: makeAttestation(ts, { health }) }), BlockErrorCode.ATTESTATION_HEALTH_MISMATCH, /claimed, .* computed from entropy_seed/)
    }
    const healths: Array<[string, Parameters<typeof makeAttestation>[1]]> = [
      ['pool size', { health: { pool_size: 10 } }],
      ['timestamp skew', { health: { timestamp: ts - p.attestationMaxSkew - 1 } }]
    ]
    for (const [name, opts] of healths) {
      await refused(t, tc, next({ attestation: makeAttestation(ts, opts) }), BlockErrorCode.ATTESTATION_BAD_HEALTH)
      t.pass(name)
    }

    const signed = makeAttestation(ts, { signer: crypto.randomBytes(32) })
    const other = makeAttestation(ts, { signer: crypto.randomBytes(32) })
    await refused(t, tc, next({ attestation: { ...signed, signature: other.signature } }), BlockErrorCode.ATTESTATION_BAD_SIGNATURE)
  })

  t.test('beacon evidence rules (envelope v2): each forgery is refused with its own code', async (t) => {
    // later than the tip by more than the 60 s window, so a stale round exists
    const ts = tc.tipRef().timestamp + 200
    const at = (opts: Parameters<typeof makeAttestation>[1] = {}): Block => next({ timestamp: ts, attestation: makeAttestation(ts, opts) })
    const forged = (edit: (env: Attestation) => void, opts: Parameters<typeof makeAttestation>[1] = {}): Block => {
      const env = makeAttestation(ts, opts)
      edit(env)
      return next({ timestamp: ts, attestation: rederive(env) })
    }
    const pin = DEVNET_BEACON.pin
    const roundAt = (unix: number): number => Math.floor((unix - pin.genesisTime) / pin.period) + 1
    const resign = (b: BeaconEvidence, beacon: { signature: string; randomness: string }): void => { b.signature = beacon.signature; b.randomness = beacon.randomness }

    const r = roundAt(ts)
    await refused(t, tc, forged((env) => { resign(env.beacons[0]!, devnetRound(r - 1)) }), BlockErrorCode.ATTESTATION_BEACON_BAD_SIGNATURE,
      /round \d+: BLS signature does not verify under the registry's beacon-devnet key/)
    const stranger = beaconSigner('bls-unchained-g1-rfc9380', crypto.randomBytes(48))
    await refused(t, tc, forged((env) => { resign(env.beacons[0]!, stranger.sign(r)) }), BlockErrorCode.ATTESTATION_BEACON_BAD_SIGNATURE, /wrong key|registry's beacon-devnet key/)
    await refused(t, tc, forged((env) => { env.beacons[0]!.randomness = env.beacons[0]!.randomness.replace(/^./, (c) => c === '0' ? '1' : '0') }),
      BlockErrorCode.ATTESTATION_BEACON_BAD_RANDOMNESS, /randomness is not sha256\(signature\)/)
    await refused(t, tc, at({ rounds: { 'beacon-devnet': roundAt(ts - 61) - 1 } }), BlockErrorCode.ATTESTATION_BEACON_STALE, /older than the block \(limit 60 s\)/)
    await refused(t, tc, at({ rounds: { 'beacon-devnet': roundAt(ts + 6) + 1 } }), BlockErrorCode.ATTESTATION_BEACON_FUTURE, /after the block's timestamp \(limit 5 s\)/)
    const seedChosen = makeAttestation(ts)
    seedChosen.entropy_seed = seededBytes('chosen seed', 32).toString('hex')
    await refused(t, tc, next({ timestamp: ts, attestation: seedChosen }), BlockErrorCode.ATTESTATION_NOT_DERIVED, /not SHA3-512\("ledger-entropy-v2"/)
    const proofChosen = makeAttestation(ts)
    proofChosen.entropy_proof = seededBytes('chosen proof', 32).toString('hex')
    proofChosen.commitment = commitmentOf(proofChosen.entropy_proof)
    await refused(t, tc, next({ timestamp: ts, attestation: proofChosen }), BlockErrorCode.ATTESTATION_NOT_DERIVED)
    await refused(t, tc, at({ source: 'self-hosted' }), BlockErrorCode.ATTESTATION_UNVERIFIABLE, /needs at least 1 verifiable beacon round/)
    await refused(t, tc, forged((env) => { env.source = 'aggregator:beacon-devnet+beacon-fastnet' }), BlockErrorCode.ATTESTATION_BEACON_SET, /needs beacon evidence for \[beacon-devnet, beacon-fastnet\]/)
    await refused(t, tc, forged((env) => { env.beacons.push({ ...env.beacons[0]! }) }), BlockErrorCode.ATTESTATION_BEACON_SET)
    const v1 = makeAttestation(ts)
    v1.version = 1
    await refused(t, tc, next({ timestamp: ts, attestation: v1 }), BlockErrorCode.ATTESTATION_BAD_VERSION)
    const extra = { ...makeAttestation(ts), chosen_by: 'miner' }
    await refused(t, tc, next({ timestamp: ts, attestation: extra }), BlockErrorCode.BAD_FORMAT, /qrng_attestation has unknown key "chosen_by"/)
    const extraBeaconField = makeAttestation(ts)
    ;(extraBeaconField.beacons[0] as unknown as Record<string, unknown>).scheme = 'none'
    await refused(t, tc, next({ timestamp: ts, attestation: extraBeaconField }), BlockErrorCode.BAD_FORMAT, /beacons\[0\] has unknown key "scheme"/)
    const chainedField = makeAttestation(ts)
    chainedField.beacons[0]!.previous_signature = chainedField.beacons[0]!.signature
    await refused(t, tc, next({ timestamp: ts, attestation: rederive(chainedField) }), BlockErrorCode.ATTESTATION_MALFORMED, /unchained, previous_signature must be absent/)
  })

  t.test('valid blocks still connect: signed envelope, aggregator compositions in any order', async (t) => {
    const sources = ['aggregator:beacon-devnet+self-hosted', 'aggregator:self-hosted+beacon-default', 'aggregator:beacon-default+self-hosted', 'aggregator:beacon-fastnet+self-hosted+beacon-default', 'beacon-fastnet', 'beacon-devnet']
    for (const source of sources) {
      const ts = tc.tipRef().timestamp + 1
      const r = await tc.chain.processBlock(next({ attestation: makeAttestation(ts, { source }) }), 'test')
      t.equal(r.status, 'connected', source)
    }
    const ts = tc.tipRef().timestamp + 1
    t.equal((await tc.chain.processBlock(next({ attestation: makeAttestation(ts, { signer: crypto.randomBytes(32) }) }), 'test')).status, 'connected', 'signed envelope')
    // the boundaries of the rules above, accepted
    const full = [1, 2, 3].map((n) => transfer(p, dev, bob.address, 1, n))
    t.equal((await tc.chain.processBlock(next({ txs: full }), 'test')).status, 'connected', 'exactly maxTxPerBlock transactions')
    t.equal((await tc.chain.processBlock(next({ coinbaseAmount: 4 }), 'test')).status, 'connected', 'a coinbase may claim less')
    const future = Date.now() / 1000 + p.maxFutureDrift - 30
    t.equal((await tc.chain.processBlock(next({ timestamp: future }), 'test')).status, 'connected', 'within the future drift')
    t.equal(tc.chain.getAccount(bob.address).balance, coinToBohm(3))
  })
})

t.test('UNTRUSTED_SOURCE: self-hosted entropy on a chain with the mainnet trust list', async (t) => {
  const tc = await openTestChain(testParams({ trustedSources: NETWORKS.mainnet.trustedSources }))
  t.teardown(async () => { await tc.close(); cleanup(tc.dir) })
  const ts = tc.tipRef().timestamp + 1
  await refused(t, tc, mineBlock(tc.params, tc.tipRef(), { attestation: makeAttestation(ts, { source: 'self-hosted' }) }), BlockErrorCode.ATTESTATION_UNTRUSTED_SOURCE, /self-hosted' is not in the devnet trust list/)
  await refused(t, tc, mineBlock(tc.params, tc.tipRef(), { attestation: makeAttestation(ts) }), BlockErrorCode.ATTESTATION_UNTRUSTED_SOURCE, /beacon-devnet' is not in the devnet trust list/)
  await refused(t, tc, mineBlock(tc.params, tc.tipRef(), { attestation: makeAttestation(ts, { source: 'aggregator:beacon-default+self-hosted' }) }), BlockErrorCode.ATTESTATION_UNTRUSTED_SOURCE)
  const ok = await tc.chain.processBlock(mineBlock(tc.params, tc.tipRef(), { attestation: makeAttestation(ts, { source: 'aggregator:beacon-fastnet+beacon-default' }) }), 'test')
  t.equal(ok.status, 'connected')
})

t.test('rejections are announced on blockRejected', async (t) => {
  const tc = await openTestChain()
  t.teardown(async () => { await tc.close(); cleanup(tc.dir) })
  const seen: Array<{ code: string; origin: string }> = []
  tc.hooks.blockRejected.tap('test', (e) => { seen.push({ code: e.code, origin: e.origin }) })
  await refused(t, tc, mineBlock(tc.params, tc.tipRef(), { difficulty: 3 }), BlockErrorCode.BAD_DIFFICULTY)
  await refused(t, tc, mineBlock(tc.params, tc.tipRef(), { txs: [transfer(tc.params, dev, dev.address, 1, 4)] }), BlockErrorCode.BAD_TX)
  t.same(seen, [{ code: BlockErrorCode.BAD_DIFFICULTY, origin: 'test' }, { code: BlockErrorCode.BAD_TX, origin: 'test' }])
})

t.test('blockRejected covers every refusal but an orphan, once per refusal', async (t) => {
  const tc = await openTestChain()
  t.teardown(async () => { await tc.close(); cleanup(tc.dir) })
  const seen: Array<{ hash: string; code: string; origin: string }> = []
  tc.hooks.blockRejected.tap('test', (e) => { seen.push({ hash: e.hash, code: e.code, origin: e.origin }) })
  const genesis = tc.tipRef()
  const expect = async (block: unknown, origin: 'test' | 'peer', code: string, hash: string): Promise<void> => {
    const from = seen.length
    const err = await tc.chain.processBlock(block as Block, origin).then(() => null, (e: unknown) => e)
    t.equal((err as BlockError | null)?.code, code, `refused with ${code}`)
    t.same(seen.slice(from), [{ hash, code, origin }], `announced once: ${code}`)
  }

  const garbage = { hash: 'not a hash', height: -1 }
  await expect(garbage, 'peer', BlockErrorCode.BAD_FORMAT, 'not a hash')
  await expect(null, 'peer', BlockErrorCode.BAD_FORMAT, '')

  const invalid = mineBlock(tc.params, genesis, { txs: [transfer(tc.params, dev, dev.address, 1, 4)] })
  await expect(invalid, 'test', BlockErrorCode.BAD_TX, invalid.hash)
  await expect(invalid, 'peer', BlockErrorCode.BAD_TX, invalid.hash) // again: known invalid

  const b1 = mineBlock(tc.params, genesis)
  await tc.chain.processBlock(b1, 'test')
  await tc.chain.processBlock(mineBlock(tc.params, tc.tipRef()), 'test')
  const light = mineBlock(tc.params, genesis, { miner: generateWallet().address })
  await expect(light, 'peer', BlockErrorCode.LIGHT_BRANCH, light.hash)

  const orphan = mineBlock(tc.params, { hash: 'ab'.repeat(64), height: 5, timestamp: genesis.timestamp + 5 })
  const before = seen.length
  await t.rejects(tc.chain.processBlock(orphan, 'peer'), { code: BlockErrorCode.PARENT_UNKNOWN })
  t.equal(seen.length, before, 'an orphan is not refused: it is processed again once its parent arrives')
})
