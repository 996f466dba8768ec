import t from 'tap'
import { NETWORKS } from '../../../config/networks.ts'
import { encodeBlock, encodeTx } from '../../../core/chain/tx-codec.ts'
import type { Block, Transaction } from '../../../core/chain/types.ts'
import { decodeBlockFrame, decodeJson, decodeTxFrame, parseBlocksRequest, parseHeadersRequest, parseHeadersResponse, parseStatus, protocolId, topics, WireError } from '../../../plugins/p2p/protocol.ts'

const hash = 'ab'.repeat(64)
const status = { chain_id: 'ledger-devnet-1', genesis_hash: hash, best_height: 3, best_hash: hash, best_work: '1234', version: '1-devnet' }

t.test('protocol ids and topics differ between networks', async (t) => {
  t.not(protocolId(NETWORKS.testnet, 'status'), protocolId(NETWORKS.mainnet, 'status'))
  t.not(topics(NETWORKS.testnet).blocks, topics(NETWORKS.devnet).blocks)
  t.match(topics(NETWORKS.testnet).txs, NETWORKS.testnet.magic)
})

t.test('status messages are checked field by field', async (t) => {
  t.same(parseStatus(status), status)
  t.throws(() => parseStatus({ ...status, best_height: -1 }), WireError)
  t.throws(() => parseStatus({ ...status, best_work: '1e9' }), WireError)
  t.throws(() => parseStatus({ ...status, genesis_hash: 'xyz' }), WireError)
  t.throws(() => parseStatus([status]), WireError)
  t.throws(() => parseStatus(null), WireError)
})

t.test('requests beyond the limits are refused, headers max is capped', async (t) => {
  t.equal(parseHeadersRequest({ locator: [hash], max: 10 ** 9 }).max, 2000)
  t.throws(() => parseHeadersRequest({ locator: Array(65).fill(hash), max: 1 }), WireError)
  t.throws(() => parseHeadersRequest({ locator: ['nothex'], max: 1 }), WireError)
  t.throws(() => parseBlocksRequest({ hashes: [] }), WireError)
  t.throws(() => parseBlocksRequest({ hashes: Array(129).fill(hash) }), WireError)
  t.throws(() => parseHeadersResponse({ headers: [1] }), WireError)
  t.throws(() => decodeJson(Buffer.from('{"a":')), WireError)
})

t.test('block and transaction frames are their binary forms; anything else is a WireError', async (t) => {
  const block = { version: 1, height: 1, transactions: [{ sender: 'mining_reward', signature: '' }], quantum_signature: null }
  t.same(decodeBlockFrame(encodeBlock(block as unknown as Block)), block)
  t.same(decodeTxFrame(encodeTx(block.transactions[0] as unknown as Transaction)), block.transactions[0])
  t.throws(() => decodeBlockFrame(Buffer.from(JSON.stringify(block))), WireError, 'JSON is not a block frame')
  t.throws(() => decodeBlockFrame(encodeTx(block.transactions[0] as unknown as Transaction)), WireError, 'a transaction is not a block')
  t.throws(() => decodeTxFrame(Uint8Array.of(0x01, 0x08, 0x05)), WireError, 'truncated')
  t.match(protocolId(NETWORKS.devnet, 'blocks'), /\/blocks\/2$/, 'the binary blocks protocol has its own version')
})
