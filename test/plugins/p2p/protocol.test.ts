import t from 'tap'
import { NETWORKS } from '../../../config/networks.ts'
import { decodeJson, parseBlocksRequest, parseHeadersRequest, parseHeadersResponse, parseStatus, protocolId, topics, WireError } from '../../../plugins/p2p/protocol.ts'

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
