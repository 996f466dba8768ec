// What a node counts it sent (sent-bytes.ts), in process on one loopback link: the
// announcements and requests of transaction relay to the byte, a compact block charged to its
// hash, a blocktxn exchange on both sides, and all of it under the TCP count.
import t from 'tap'
import { params, startPeeredPair, waitFor } from './helpers.ts'
import { devWallet, generateWallet, mineBlock, transfer } from '../../helpers/chain.ts'
import { encodeTx } from '../../../core/chain/tx-codec.ts'
import { encodeCompact } from '../../../plugins/p2p/compact.ts'
import { encodeHeader } from '../../../core/chain/header.ts'
import { encodeJson, protocolId } from '../../../plugins/p2p/protocol.ts'
import { negotiationBytes } from '../../../plugins/p2p/sent-bytes.ts'
import type { SentBytesProtocol, SentBytesSnapshot } from '../../../core/kernel/services.ts'

const quiet = { statusIntervalMs: 600_000 }
const delta = (after: SentBytesSnapshot, before: SentBytesSnapshot, label: SentBytesProtocol): number => (after.protocols[label] ?? 0) - (before.protocols[label] ?? 0)
const nego = (method: 'txinv' | 'gettx' | 'blocktxn'): number => negotiationBytes(protocolId(params, method))
const framed = (payload: Uint8Array): number => 4 + payload.length

t.test('announcing transactions: txinv and gettx counted to the byte on both sides; the compact block charged to its hash', async (t) => {
  const [a, b] = await startPeeredPair(t, quiet)
  const dev = devWallet()
  const txs = Array.from({ length: 8 }, (_, n) => transfer(params, dev, generateWallet().address, 1, n))
  const a0 = a.p2p.sentBytes()
  const b0 = b.p2p.sentBytes()
  for (const tx of txs) a.mempool.add(tx)
  await waitFor('b to hold the transactions', () => b.mempool.size === txs.length)
  await waitFor('a to have answered in full', () => delta(a.p2p.sentBytes(), a0, 'gettx') > 0)
  const a1 = a.p2p.sentBytes()
  const b1 = b.p2p.sentBytes()
  // one announcement (the 50 ms flush gathers them) and one request for all eight
  const inv = { ids: txs.map((tx) => tx.transaction_id), sizes: txs.map((tx) => encodeTx(tx).length) }
  t.equal(delta(a1, a0, 'txinv'), nego('txinv') + framed(encodeJson(inv)), 'a: the announcement and its stream\'s negotiation')
  t.equal(delta(b1, b0, 'txinv'), nego('txinv'), 'b: only the negotiation echo (a txinv has no answer)')
  t.equal(delta(b1, b0, 'gettx'), nego('gettx') + framed(encodeJson({ ids: inv.ids })), 'b: the request')
  t.equal(delta(a1, a0, 'gettx'), nego('gettx') + txs.reduce((n, tx) => n + framed(encodeTx(tx)), 0), 'a: each body once')
  t.equal(delta(a1, a0, 'gossip/txs'), 0, 'nothing on the old transaction topic')

  const block = mineBlock(params, a.chain.tip(), { txs })
  await a.chain.processBlock(block, 'test')
  await waitFor('b to connect the block', () => b.chain.tip().hash === block.hash)
  await waitFor('a to count its announcement', () => a.p2p.sentBytes().blocks[block.hash] !== undefined)
  const a2 = a.p2p.sentBytes()
  const perBlock = a2.blocks[block.hash] as number
  const announcement = encodeCompact(block, encodeHeader(block)).length
  t.equal(perBlock, delta(a2, a1, 'gossip/cmpctblock'), 'the block\'s count is what went on the compact topic')
  t.ok(perBlock > announcement && perBlock < announcement + 256, `the announcement (${announcement} bytes) in gossipsub's envelope (${perBlock})`)
  t.same(b.p2p.compactStats(), { rebuilt: 1, withRequest: 0, wholeBlock: 0 })
  t.equal(b.p2p.sentBytes().blocks[block.hash], undefined, 'b sent nothing for it: its only peer announced it')

  const all = (s: SentBytesSnapshot): number => Object.values(s.protocols).reduce((x, y) => x + y, 0)
  t.ok(all(a2) > 0 && all(a2) < a.p2p.traffic().bytesOut, `under what TCP carried (${all(a2)} < ${a.p2p.traffic().bytesOut}: noise and yamux framing)`)
  t.ok(a2.protocols.status !== undefined && a2.protocols.identify !== undefined, 'the handshake\'s status and identify counted')
})

t.test('a blocktxn exchange: the request charged to the block by the receiver, the answer by the announcer', async (t) => {
  const [a, b] = await startPeeredPair(t, quiet)
  const dev = devWallet()
  const txs = [0, 1, 2].map((n) => transfer(params, dev, generateWallet().address, 1, n))
  // made on a alone: b never heard of its transactions
  const block = mineBlock(params, a.chain.tip(), { txs })
  await a.chain.processBlock(block, 'test')
  await waitFor('b to connect the block', () => b.chain.tip().hash === block.hash)
  t.same(b.p2p.compactStats(), { rebuilt: 0, withRequest: 1, wholeBlock: 0 })
  const request = { hash: block.hash, indexes: [1, 2, 3] }
  t.equal(b.p2p.sentBytes().blocks[block.hash], nego('blocktxn') + framed(encodeJson(request)), 'b: its request')
  await waitFor('a to count its answer', () => (a.p2p.sentBytes().protocols.blocktxn ?? 0) > nego('blocktxn'))
  const a1 = a.p2p.sentBytes()
  const answer = nego('blocktxn') + txs.reduce((n, tx) => n + framed(encodeTx(tx)), 0)
  t.equal(a1.protocols.blocktxn, answer, 'a: the three bodies')
  t.equal(a1.blocks[block.hash], (a1.protocols['gossip/cmpctblock'] ?? 0) + answer, 'a: the announcement and the answer')
})
