// The consensus plugin verifies a block's signatures on its thread pool before applying it; the
// outcome must be exactly that of inline verification: same accepted blocks, same errors.
import t from 'tap'
import type { Test } from 'tap'
import type { Block } from '../../../core/chain/types.ts'
import { mineBlock, transfer, devWallet, generateWallet, testParams } from '../../helpers/chain.ts'
import { signTransaction } from '../../../core/chain/tx.ts'
import { BlockError, BlockErrorCode } from '../../../core/chain/errors.ts'
import { startChainNode, refOf, stateDump } from './reorg-helpers.ts'

const params = testParams()
const dev = devWallet()
const senders = Array.from({ length: 5 }, () => generateWallet())
const to = generateWallet()

/** a node whose chain has funded the senders (their block: `fund`) */
async function fundedNode (t: Test): Promise<{ node: Awaited<ReturnType<typeof startChainNode>>; fund: Block }> {
  const node = await startChainNode(params)
  t.teardown(() => node.stop())
  const fund = mineBlock(params, refOf(node.chain.tip()), { txs: senders.map((w, i) => transfer(params, dev, w.address, 10, i)) })
  t.equal((await node.chain.processBlock(fund, 'test')).status, 'connected')
  return { node, fund }
}

t.test('keys carried earlier in the same block, bad signatures and key mismatches', async (t) => {
  const { node, fund } = await fundedNode(t)

  // each new sender reveals its key in its first transaction; its second, in the same block, relies on it
  const firsts = senders.map((w) => transfer(params, w, to.address, 1, 0))
  const seconds = senders.map((w) => transfer(params, w, to.address, 1, 1, { withKey: false }))

  const forged = signTransaction(params.chainId, { sender: senders[1]!.address, recipient: to.address, amount: 1, fee: 0.001, timestamp: Date.now() / 1000, nonce: 1, data: {} }, senders[2]!.seed)
  const before = await stateDump(node.db)
  const bad = mineBlock(params, refOf(fund), { txs: [...firsts, seconds[0]!, forged, ...seconds.slice(2)] })
  try {
    await node.chain.processBlock(bad, 'test')
    t.fail('a forged signature must be refused')
  } catch (err) {
    t.ok(err instanceof BlockError)
    t.equal((err as BlockError).code, BlockErrorCode.BAD_TX)
    t.match((err as Error).message, /transaction 7: ML-DSA-87 signature does not verify/, 'the same error inline verification gives')
  }
  t.same(await stateDump(node.db), before, 'nothing of the refused block was applied')

  const mismatch = signTransaction(params.chainId, { sender: senders[0]!.address, recipient: to.address, amount: 1, fee: 0.001, timestamp: Date.now() / 1000, nonce: 0, data: { public_key: Buffer.from(senders[3]!.publicKey).toString('hex') } }, senders[0]!.seed)
  try {
    await node.chain.processBlock(mineBlock(params, refOf(fund), { txs: [mismatch, ...firsts.slice(1)] }), 'test')
    t.fail('a carried key of another address must be refused')
  } catch (err) {
    t.match((err as Error).message, /data.public_key does not hash to the sender address/)
  }

  const good = mineBlock(params, refOf(fund), { txs: [...firsts, ...seconds] })
  t.equal((await node.chain.processBlock(good, 'test')).status, 'connected')
  for (const w of senders) t.equal(node.chain.getAccount(w.address).nonce, 2)
})

t.test('a body that is not the one its header commits to is refused by its merkle root (hashed on the pool), never marked invalid', async (t) => {
  const { node, fund } = await fundedNode(t)
  const txs = senders.map((w) => transfer(params, w, to.address, 1, 0))
  const good = mineBlock(params, refOf(fund), { txs })
  // the same header with a transaction swapped for a forged one: applying it would fail on the
  // signature (BAD_TX, which marks a block invalid), but the body is not the committed one
  const forged = signTransaction(params.chainId, { sender: senders[1]!.address, recipient: to.address, amount: 1, fee: 0.001, timestamp: Date.now() / 1000, nonce: 0, data: {} }, senders[2]!.seed)
  const tampered = { ...good, transactions: good.transactions.map((tx, i) => i === 2 ? forged : tx) }
  const before = await stateDump(node.db)
  try {
    await node.chain.processBlock(tampered, 'peer')
    t.fail('a tampered body must be refused')
  } catch (err) {
    t.ok(err instanceof BlockError)
    t.equal((err as BlockError).code, BlockErrorCode.BAD_MERKLE_ROOT)
  }
  t.same(await stateDump(node.db), before, 'nothing written, the hash not marked invalid')
  t.equal((await node.chain.processBlock(good, 'peer')).status, 'connected', 'the genuine body of the same header connects')
})

t.test('a block processed with its transactions\' forms from a peer\'s frame stores those bytes', async (t) => {
  const { encodeBlock, decodeBlock, txFormsOfDecodedBlock } = await import('../../../core/chain/tx-codec.ts')
  const { node, fund } = await fundedNode(t)
  const block = mineBlock(params, refOf(fund), { txs: senders.map((w) => transfer(params, w, to.address, 1, 0, { data: { memo: 'wire ✓' } })) })
  const frame = encodeBlock(block)
  const txForms = txFormsOfDecodedBlock(frame)!
  // the forms are what the merkle root is checked over: another block's are refused
  const other = mineBlock(params, refOf(fund), { txs: senders.map((w) => transfer(params, w, to.address, 2, 0)) })
  await t.rejects(node.chain.processBlock(decodeBlock(frame) as Block, 'peer', { txForms: txFormsOfDecodedBlock(encodeBlock(other))! }), { code: BlockErrorCode.BAD_MERKLE_ROOT }, 'and not marked invalid: the right forms connect it next')
  t.equal((await node.chain.processBlock(decodeBlock(frame) as Block, 'peer', { txForms })).status, 'connected')
  t.same(Buffer.from((await node.chain.getBlockBinary(block.hash))!), frame, 'served again byte for byte as it came')
  t.same(await node.chain.getBlockByHash(block.hash), block)
})
