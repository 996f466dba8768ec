// Issue 12's consensus limits, each at its boundary: the serialized block size, the block gas
// limit (and the per-transaction gas cap it implies), log bytes per transaction and per block,
// the miner's template filled by count, bytes and gas, and strict object keys on processBlock.
import t from 'tap'
import type { Test } from 'tap'
import { openTestChain, mineBlock, transfer, devWallet, generateWallet, cleanup, testParams, makeAttestation } from '../../helpers/chain.ts'
import type { TestChain } from '../../helpers/chain.ts'
import { deployTx, callTx, word } from '../../helpers/contracts.ts'
import { BlockError, BlockErrorCode, TxError, TxErrorCode } from '../../../core/chain/errors.ts'
import type { Block } from '../../../core/chain/types.ts'
import type { NetworkParams } from '../../../core/chain/params.ts'
import { blockSize, txSize } from '../../../core/chain/block-size.ts'
import { encodeBlock } from '../../../core/chain/tx-codec.ts'
import { assembleBlock, fitToBudget, templateBudget } from '../../../core/chain/template.ts'
import { genesisBlock } from '../../../core/chain/genesis.ts'
import { NETWORKS } from '../../../config/networks.ts'
import { assemble } from '../../../core/vm/assembler.ts'
import { contractAddress } from '../../../core/vm/index.ts'
import { coinToBohm } from '../../../core/chain/money.ts'
import { LIMITS } from '../../../plugins/p2p/protocol.ts'

const dev = devWallet()

async function open (t: Test, params: NetworkParams, vm: 'js' | null = null): Promise<TestChain> {
  const tc = await openTestChain(params, undefined, { vm })
  t.teardown(async () => { await tc.close(); cleanup(tc.dir) })
  return tc
}

async function refusedWith (t: Test, tc: TestChain, block: Block, code: string, reason: RegExp): Promise<void> {
  const tip = tc.chain.tip().hash
  try {
    await tc.chain.processBlock(block, 'test')
    t.fail(`expected ${code}`)
  } catch (err) {
    if (!(err instanceof BlockError)) { t.fail(`expected ${code}, got ${String(err)}`); return }
    t.equal(err.code, code)
    t.match(err.message, reason)
  }
  t.equal(tc.chain.tip().hash, tip, 'tip unchanged')
}

/** init code that deploys `runtime` (CODECOPY of the bytes after the 12-byte prologue) */
function deployable (runtime: Uint8Array): string {
  const init = assemble(`PUSH1 ${runtime.length} PUSH1 12 PUSH1 0 CODECOPY PUSH1 ${runtime.length} PUSH1 0 RETURN`)
  return Buffer.concat([init, runtime]).toString('hex')
}

t.test('every network: transaction < block < gossip message < sync frame; the gas cap fits a block', async (t) => {
  for (const p of Object.values(NETWORKS)) {
    t.ok(p.maxTxBytes * 4 <= p.maxBlockBytes, `${p.name}: a block holds several of the largest transactions`)
    t.ok(p.maxBlockBytes * 2 <= LIMITS.maxGossipBytes, `${p.name}: a block is well under the gossip limit`)
    t.ok(LIMITS.maxGossipBytes < LIMITS.maxFrameBytes, 'gossip under the sync frame')
    t.ok(p.maxTxLogBytes <= p.maxBlockLogBytes)
    t.ok(p.blockGasLimit >= 1_000_000, 'a default-gas contract transaction fits')
  }
})

t.test('TOO_LARGE: the serialized block size, accepted at the limit, refused one byte over', async (t) => {
  const base = testParams()
  const parent = (() => { const g = genesisBlock(base); return { hash: g.hash, height: 0, timestamp: g.timestamp } })()
  const txs = [transfer(base, dev, generateWallet().address, 1, 0, { data: { memo: 'm'.repeat(512) } })]
  const block = mineBlock(base, parent, { txs })
  const size = blockSize(block)
  t.equal(size, encodeBlock(block).length, 'the measured size is that of the binary form peers exchange')

  const over = await open(t, testParams({ maxBlockBytes: size - 1 }))
  await refusedWith(t, over, block, BlockErrorCode.TOO_LARGE, new RegExp(`block is ${size} bytes, more than the ${size - 1}-byte limit`))
  t.equal(over.chain.getBlockMeta(block.hash)?.status, undefined, 'an oversized block is not stored')

  const at = await open(t, testParams({ maxBlockBytes: size }))
  t.equal((await at.chain.processBlock(block, 'test')).status, 'connected')
})

t.test('a transaction over maxTxBytes is refused by the mempool and in a block', async (t) => {
  const tx = transfer(testParams(), dev, generateWallet().address, 1, 0, { data: { memo: 'm'.repeat(512) } })
  const tc = await open(t, testParams({ maxTxBytes: txSize(tx) - 1 }))
  t.throws(() => tc.mempool.add(tx), new TxError(TxErrorCode.BAD_FORMAT, `transaction is ${txSize(tx)} bytes, more than the ${txSize(tx) - 1}-byte limit`))
  await refusedWith(t, tc, mineBlock(tc.params, tc.tipRef(), { txs: [tx] }), BlockErrorCode.BAD_TX, /more than the \d+-byte limit/)
})

t.test('GAS_LIMIT_EXCEEDED: declared gas of a block, and the per-transaction cap', async (t) => {
  const tc = await open(t, testParams({ blockGasLimit: 2_000_000 }), 'js')
  const p = tc.params
  const code = deployable(assemble('STOP'))
  const three = [0, 1, 2].map((n) => deployTx(p, dev, n, code, { gasLimit: 1_000_000, withKey: n === 0 }))
  await refusedWith(t, tc, mineBlock(p, tc.tipRef(), { txs: three }), BlockErrorCode.GAS_LIMIT_EXCEEDED, /reserve 3000000 gas, more than the block gas limit 2000000/)
  t.equal((await tc.chain.processBlock(mineBlock(p, tc.tipRef(), { txs: three.slice(0, 2) }), 'test')).status, 'connected', 'exactly the limit')
  const greedy = deployTx(p, dev, 2, code, { gasLimit: 2_000_001, withKey: false })
  t.throws(() => tc.mempool.add(greedy), /data.gas_limit must be an integer 1..2000000/, 'no transaction may reserve more than a block holds')
})

t.test('log bytes: per transaction and per block, the excess fails its transaction, not the block', async (t) => {
  // logs calldata word 0 bytes of zeros: 20 + 0 topics + n bytes against the limits
  const tc = await open(t, testParams({ maxTxLogBytes: 1000, maxBlockLogBytes: 1500 }), 'js')
  const p = tc.params
  const logger = deployable(assemble('PUSH1 0 CALLDATALOAD PUSH1 0 LOG0 STOP'))
  await tc.chain.processBlock(mineBlock(p, tc.tipRef(), { txs: [deployTx(p, dev, 0, logger, { gasLimit: 200_000 })] }), 'test')
  const contract = contractAddress(dev.vmAddress, 0n)
  const call = (nonce: number, bytes: number) => callTx(p, dev, nonce, contract, word(bytes), { gasLimit: 200_000, withKey: false })
  const txs = [call(1, 1100 - 20), call(2, 600 - 20), call(3, 600 - 20), call(4, 400 - 20)]
  const r = await tc.chain.processBlock(mineBlock(p, tc.tipRef(), { txs }), 'test')
  t.equal(r.status, 'connected', 'the block is valid whatever its transactions log')
  const receipts = await Promise.all(txs.map(async (tx) => await tc.chain.getReceipt(tx.transaction_id)))
  t.match(receipts[0], { success: false, error: /log limit exceeded: more than 1000 bytes/, gas_used: 200_000, logs: [] }, 'over the per-transaction limit')
  t.match(receipts[1], { success: true }, '600 of the block\'s 1500')
  t.match(receipts[2], { success: true }, '1200 of 1500')
  t.match(receipts[3], { success: false, error: /log limit exceeded: more than 300 bytes/ }, 'the block has 300 left')
  t.equal(receipts[1]?.logs[0]?.data.length, 2 * 580)
})

t.test('the template is filled by bytes and by gas as well as by count', async (t) => {
  const p = testParams({ maxBlockBytes: 32 * 1024, blockGasLimit: 3_000_000 })
  const tc = await open(t, p)
  const attestation = makeAttestation(tc.tipRef().timestamp + 1)
  const header = { parent: tc.tipRef(), miner: dev.address, timestamp: tc.tipRef().timestamp + 1, bits: p.initialBits, supply: coinToBohm(2_000_000), attestation }
  const budget = templateBudget(p, header)
  t.equal(budget.count, p.maxTxPerBlock)
  t.equal(budget.gas, 3_000_000)
  const transfers = Array.from({ length: 10 }, (_, n) => transfer(p, dev, generateWallet().address, 1, n, { data: { memo: 'z'.repeat(500) } }))
  const fitted = fitToBudget(transfers, budget)
  t.ok(fitted.length > 0 && fitted.length < transfers.length, `bytes stop the template at ${fitted.length} of ${transfers.length}`)
  t.same(fitted, transfers.slice(0, fitted.length), 'a nonce-ordered prefix')
  const { block } = assembleBlock(p, { ...header, transactions: fitted })
  t.ok(blockSize(block) <= p.maxBlockBytes, 'the block is within the limit')
  const { block: oneMore } = assembleBlock(p, { ...header, transactions: transfers.slice(0, fitted.length + 1) })
  t.ok(blockSize(oneMore) > p.maxBlockBytes, 'and one more transaction would not be')

  const code = deployable(assemble('STOP'))
  const deploys = [0, 1, 2, 3].map((n) => deployTx(p, dev, n, code, { gasLimit: 1_000_000 }))
  t.equal(fitToBudget(deploys, budget).length, 3, 'gas stops the template at 3 x 1M')
  t.equal(fitToBudget(transfers, { ...budget, count: 2 }).length, 2, 'count still applies')
})

t.test('canonical objects: a key the schema does not name is refused on processBlock, naming it', async (t) => {
  const tc = await open(t, testParams())
  const p = tc.params
  const good = (): Block => mineBlock(p, tc.tipRef(), { txs: [transfer(p, dev, generateWallet().address, 1, 0)] })
  const cases: Array<[string, (b: Block) => object, RegExp]> = [
    ['block', (b) => ({ ...b, padding: 'x'.repeat(1000) }), /block has unknown key "padding"/],
    ['transaction', (b) => ({ ...b, transactions: [b.transactions[0], { ...b.transactions[1], relay_note: 1 }] }), /transaction 1 has unknown key "relay_note"/],
    ['coinbase', (b) => ({ ...b, transactions: [{ ...b.transactions[0], extra: 1 }, b.transactions[1]] }), /transaction 0 has unknown key "extra"/],
    ['quantum_signature', (b) => ({ ...b, quantum_signature: { ...b.quantum_signature, extra: 1 } }), /quantum_signature has unknown key "extra"/],
    ['attestation', (b) => ({ ...b, quantum_signature: { qrng_attestation: { ...b.quantum_signature?.qrng_attestation, note: 'x' } } }), /qrng_attestation has unknown key "note"/],
    ['health', (b) => ({ ...b, quantum_signature: { qrng_attestation: { ...b.quantum_signature?.qrng_attestation, health: { ...b.quantum_signature?.qrng_attestation.health, temp: 1 } } } }), /qrng_attestation.health has unknown key "temp"/]
  ]
  for (const [what, pad, reason] of cases) {
    await refusedWith(t, tc, pad(good()) as Block, BlockErrorCode.BAD_FORMAT, reason)
    t.pass(what)
  }
  t.equal((await tc.chain.processBlock(good(), 'test')).status, 'connected', 'the unpadded block is accepted')
})
