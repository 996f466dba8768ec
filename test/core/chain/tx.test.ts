import t from 'tap'
import type { Test } from 'tap'
import crypto from 'node:crypto'
import { signTransaction, signingPayload, txId, verifyTxSignature } from '../../../core/chain/tx.ts'
import type { UnsignedTx } from '../../../core/chain/tx.ts'
import { checkTxFormat, checkTxSignature, senderPublicKey } from '../../../core/chain/tx-rules.ts'
import { TxError, TxErrorCode } from '../../../core/chain/errors.ts'
import type { TxErrorCode as TxCode } from '../../../core/chain/errors.ts'
import type { Transaction } from '../../../core/chain/types.ts'
import type { AccountState } from '../../../core/chain/state.ts'
import { getMldsaCore } from '../../../core/crypto/mldsa.ts'
import { DEFAULT_SHA3_CORE } from '../../../core/crypto/sha3.ts'
import { walletAddressFromPublicKey } from '../../../core/chain/address.ts'
import { NETWORKS } from '../../../config/networks.ts'
import { testParams, devWallet, generateWallet } from '../../helpers/chain.ts'

const params = testParams()
const dev = devWallet()
const bob = generateWallet()
const unknownAccount: AccountState = { balance: 0n, nonce: 0, publicKey: null }
const knownAccount: AccountState = { balance: 0n, nonce: 0, publicKey: Buffer.from(dev.publicKey).toString('hex') }

function unsigned (overrides: Partial<UnsignedTx> = {}): UnsignedTx {
  return { sender: dev.address, recipient: bob.address, amount: 12.5, fee: 0.001, timestamp: 1767225700.5, nonce: 3, data: { memo: 'hi' }, ...overrides }
}

function code (t: Test, fn: () => unknown, expected: TxCode, reason?: RegExp): void {
  try { fn(); t.fail(`expected ${expected}`) } catch (err) {
    if (!(err instanceof TxError)) { t.fail(`not a TxError: ${String(err)}`); return }
    t.equal(err.code, expected)
    if (reason !== undefined) t.match(err.message, reason)
  }
}

t.test('transaction_id is SHA3-256 of the RFC 8785 payload, chain_id included', async (t) => {
  const u = unsigned({ data: { memo: 'hi', b: 1, a: [1, 'x'] } })
  // RFC 8785: keys sorted by UTF-16 code units, no whitespace, shortest number form.
  const expected = `{"amount":12.5,"chain_id":"${params.chainId}","data":{"a":[1,"x"],"b":1,"memo":"hi"},"fee":0.001,` +
    `"nonce":3,"recipient":"${bob.address}","sender":"${dev.address}","timestamp":1767225700.5}`
  t.equal(signingPayload(params.chainId, u), expected)
  t.equal(txId(params.chainId, u), crypto.createHash('sha3-256').update(expected).digest('hex'))
  t.equal(signingPayload('c', unsigned({ amount: 1e21, fee: 1e-7 })).match(/"amount":[^,]+,/)?.[0], '"amount":1e+21,')
  t.match(signingPayload('c', unsigned({ fee: 1e-7 })), /"fee":1e-7,/)
  const tx = signTransaction(params.chainId, u, dev.seed)
  t.equal(tx.transaction_id, txId(params.chainId, u))
  t.equal(tx.signature.length, 4627 * 2, 'ML-DSA-87 signature, hex')
  t.ok(verifyTxSignature(tx, dev.publicKey))
  t.same(checkTxSignature(tx, knownAccount), dev.publicKey)
})

t.test('tampering with any signed field breaks verification', async (t) => {
  const tx = signTransaction(params.chainId, unsigned(), dev.seed)
  const tampered: Array<[string, Partial<Transaction>]> = [
    ['amount', { amount: 12.6 }],
    ['fee', { fee: 0.002 }],
    ['recipient', { recipient: generateWallet().address }],
    ['sender', { sender: bob.address }],
    ['nonce', { nonce: 4 }],
    ['data.memo', { data: { memo: 'hj' } }],
    ['data (added key)', { data: { memo: 'hi', type: 'call' } }],
    ['timestamp', { timestamp: 1767225700.6 }]
  ]
  for (const [field, change] of tampered) {
    const forged = { ...tx, ...change }
    code(t, () => checkTxFormat(params, forged), TxErrorCode.BAD_ID, /does not match the signed payload/)
    // An attacker who also recomputes the id still cannot produce a signature over it.
    const reId = { ...forged, transaction_id: txId(params.chainId, forged) }
    t.not(reId.transaction_id, tx.transaction_id, `${field} is part of the id`)
    t.equal(verifyTxSignature(reId, dev.publicKey), false, `${field}: signature no longer verifies`)
    code(t, () => checkTxSignature(reId, knownAccount), TxErrorCode.BAD_SIGNATURE, /does not verify/)
  }
  const flipped = tx.signature.slice(0, 100) + (tx.signature[100] === '0' ? '1' : '0') + tx.signature.slice(101)
  code(t, () => checkTxSignature({ ...tx, signature: flipped }, knownAccount), TxErrorCode.BAD_SIGNATURE)
  code(t, () => checkTxSignature({ ...tx, signature: tx.signature.slice(0, -2) }, knownAccount), TxErrorCode.BAD_SIGNATURE)
  t.equal(verifyTxSignature({ ...tx, signature: 'zz' + tx.signature.slice(2) }, dev.publicKey), false, 'non-hex signature')
})

t.test('a transaction signed for another chain_id is refused', async (t) => {
  const testnetTx = signTransaction(NETWORKS.testnet.chainId, unsigned(), dev.seed)
  t.not(txId(params.chainId, unsigned()), testnetTx.transaction_id)
  code(t, () => checkTxFormat(params, testnetTx), TxErrorCode.BAD_ID)
  t.ok(checkTxFormat(NETWORKS.testnet, testnetTx), 'valid on its own chain')
  const replayed = { ...testnetTx, transaction_id: txId(params.chainId, testnetTx) }
  code(t, () => checkTxSignature(replayed, knownAccount), TxErrorCode.BAD_SIGNATURE)
})

t.test('sender keys: unknown, carried, mismatched, recorded', async (t) => {
  const noKey = signTransaction(params.chainId, unsigned(), dev.seed)
  code(t, () => senderPublicKey(noKey, unknownAccount), TxErrorCode.UNKNOWN_KEY, /include data\.public_key/)
  code(t, () => checkTxSignature(noKey, unknownAccount), TxErrorCode.UNKNOWN_KEY)

  const carried = signTransaction(params.chainId, unsigned({ data: { public_key: Buffer.from(dev.publicKey).toString('hex') } }), dev.seed)
  t.same(checkTxSignature(carried, unknownAccount), dev.publicKey, 'a carried key that hashes to the sender verifies')

  const wrongKey = signTransaction(params.chainId, unsigned({ data: { public_key: Buffer.from(bob.publicKey).toString('hex') } }), dev.seed)
  code(t, () => checkTxSignature(wrongKey, unknownAccount), TxErrorCode.KEY_MISMATCH, /does not hash to the sender/)

  // Once the chain knows the key it is authoritative, whatever the transaction carries.
  t.same(checkTxSignature(wrongKey, knownAccount), dev.publicKey)
  const bobSigned = signTransaction(params.chainId, unsigned({ data: { public_key: Buffer.from(bob.publicKey).toString('hex') } }), bob.seed)
  code(t, () => checkTxSignature(bobSigned, knownAccount), TxErrorCode.BAD_SIGNATURE)
  t.equal(walletAddressFromPublicKey(dev.publicKey), dev.address)
})

t.test('native and noble ML-DSA-87 cores verify each other', async (t) => {
  const native = getMldsaCore('native')
  const noble = getMldsaCore('noble')
  const seed = crypto.randomBytes(32)
  const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')
  t.equal(hex(native.keygen(seed).publicKey), hex(noble.keygen(seed).publicKey), 'same key from the same seed')
  const pub = native.keygen(seed).publicKey
  const msg = crypto.randomBytes(32)
  const sigNative = native.sign(seed, msg)
  const sigNoble = noble.sign(seed, msg)
  t.ok(noble.verify(pub, msg, sigNative), 'noble verifies native')
  t.ok(native.verify(pub, msg, sigNoble), 'native verifies noble')
  t.notOk(noble.verify(pub, crypto.randomBytes(32), sigNative))
  t.notOk(native.verify(pub, crypto.randomBytes(32), sigNoble))

  // A transaction signed by the native core passes the tx rules under the noble core.
  const tx = signTransaction(params.chainId, unsigned(), dev.seed)
  t.same(checkTxSignature(tx, knownAccount, { sha3: DEFAULT_SHA3_CORE, mldsa: noble }), dev.publicKey)
  const nobleTx = signTransaction(params.chainId, unsigned({ nonce: 9 }), dev.seed, { sha3: DEFAULT_SHA3_CORE, mldsa: noble })
  t.same(checkTxSignature(nobleTx, knownAccount, { sha3: DEFAULT_SHA3_CORE, mldsa: native }), dev.publicKey)
})

t.test('a signed transaction survives a JSON round-trip', async (t) => {
  const tx = signTransaction(params.chainId, unsigned({ amount: 0.000000000000000001, fee: 0.0001, data: { memo: 'ünïcode ✓ "quoted"', public_key: Buffer.from(dev.publicKey).toString('hex') } }), dev.seed)
  const copy = JSON.parse(JSON.stringify(tx)) as Transaction
  t.same(copy, tx)
  t.same(checkTxFormat(params, copy), { amount: 1n, fee: 100_000_000_000_000n, gasLimit: null })
  t.same(checkTxSignature(copy, unknownAccount), dev.publicKey)
})
