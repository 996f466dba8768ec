// Relay cost on one link, measured in bytes through a counting proxy (issue 28's goals): a
// transaction body crosses the link once (announced by id, sent on request), and a block whose
// transactions the receiver already holds crosses as a compact announcement.
import t from 'tap'
import { params, startP2pNode, startPeeredPair, waitFor } from './helpers.ts'
import type { P2pTestNode } from './helpers.ts'
import { devWallet, generateWallet, mineBlock, transfer } from '../../helpers/chain.ts'
import { encodeBlock, encodeTx } from '../../../core/chain/tx-codec.ts'
import { startByteCountingProxy } from './fixtures/byte-counting-proxy.ts'
import type { Transaction } from '../../../core/chain/types.ts'
import { startRogue } from './fixtures/rogue.ts'
import { ourStatus } from '../../../plugins/p2p/chain-server.ts'
import { nodeVersion } from '../../../core/kernel/version.ts'
import { topics } from '../../../plugins/p2p/protocol.ts'
import { encodeCompact } from '../../../plugins/p2p/compact.ts'
import { encodeHeader } from '../../../core/chain/header.ts'
import { PENALTY } from '../../../plugins/p2p/misbehaviour.ts'
import type { BlockRelayedEvent } from '../../../core/kernel/hooks.ts'

/** everything both nodes counted they handed their streams */
const appSent = (...nodes: P2pTestNode[]): number => nodes.reduce((n, x) => n + Object.values(x.p2p.sentBytes().protocols).reduce((s, v) => s + v, 0), 0)

t.test('a 100-transfer block whose transactions were announced crosses the link in under 5% of its size; each body once', async (t) => {
  // status polls far apart: the bytes measured are the relay's, not the poll's
  const quiet = { statusIntervalMs: 600_000 }
  const a = await startP2pNode({ p2p: quiet })
  t.teardown(() => a.stop())
  const proxy = await startByteCountingProxy(a.p2p.listenPort() as number)
  t.teardown(() => proxy.close())
  const b = await startP2pNode({ p2p: quiet, peers: [proxy.address] })
  t.teardown(() => b.stop())
  await waitFor('the handshake through the proxy', () => a.p2p.peers().length === 1 && b.p2p.peers().length === 1)

  // a second funded sender: one sender may have only 64 transactions pending
  const dev = devWallet()
  const w = generateWallet()
  const funding = transfer(params, dev, w.address, 1000, 0)
  const tip0 = a.chain.tip()
  await a.chain.processBlock(mineBlock(params, tip0, { txs: [funding] }), 'test')
  await waitFor('b to follow the funding block', () => b.chain.tip().height === 1)

  const txs: Transaction[] = []
  for (let i = 0; i < 50; i++) txs.push(transfer(params, dev, generateWallet().address, 1, i + 1))
  for (let i = 0; i < 50; i++) txs.push(transfer(params, w, generateWallet().address, 1, i, { withKey: i === 0 }))
  const txBytes = txs.reduce((n, tx) => n + encodeTx(tx).length, 0)

  const beforeTxs = proxy.bytes()
  const appBefore = appSent(a, b)
  for (const tx of txs) a.mempool.add(tx)
  await waitFor('b to hold all 100 transactions', () => b.mempool.size === 100, 30_000)
  const txLink = proxy.bytes() - beforeTxs
  t.comment(`transactions: ${txLink} bytes on the link for ${txBytes} bytes of transactions (${(txLink / txBytes).toFixed(3)}x)`)
  t.ok(txLink <= 1.2 * txBytes, `each body crossed the link once (${(txLink / txBytes).toFixed(3)}x ≤ 1.2x)`)
  // the nodes' own count of what they sent is what crossed the link, less the framing (noise, yamux: a few percent)
  const txApp = appSent(a, b) - appBefore
  t.comment(`the nodes counted ${txApp} bytes sent: framing ×${(txLink / txApp).toFixed(4)}`)
  t.ok(txApp <= txLink && txApp >= 0.9 * txLink, `the nodes' counts (${txApp}) under the link's bytes (${txLink}), within the framing`)

  const tip = a.chain.tip()
  const block = mineBlock(params, tip, { txs })
  const full = encodeBlock(block).length
  const beforeBlock = proxy.bytes()
  await a.chain.processBlock(block, 'test')
  await waitFor('b to connect the block', () => b.chain.tip().hash === block.hash, 30_000)
  const blockLink = proxy.bytes() - beforeBlock
  t.comment(`block: ${blockLink} bytes on the link for a ${full}-byte block (${(blockLink / full).toFixed(4)}x)`)
  t.ok(blockLink <= 0.05 * full, `the block crossed compact (${(blockLink / full).toFixed(4)}x ≤ 0.05x)`)
  const counted = a.p2p.sentBytes().blocks[block.hash] ?? 0
  t.comment(`a counted ${counted} bytes sent to relay the block (${(counted / full).toFixed(4)}x)`)
  t.ok(counted > 0 && counted <= blockLink, 'the announcer\'s count of the block\'s relay is within what crossed the link')
  t.equal(b.mempool.size, 0, 'its transactions left b\'s mempool')
  t.same(b.p2p.compactStats(), { rebuilt: 1, withRequest: 1, wholeBlock: 0 }, 'the 100-transfer block rebuilt with no extra round trip (the funding block, whose transaction b never heard of, took one)')
})

t.test('a receiver that lacks the transactions asks for them by index and still connects the block', async (t) => {
  const a = await startP2pNode()
  t.teardown(() => a.stop())
  const b = await startP2pNode({ peers: [a.address] })
  t.teardown(() => b.stop())
  const relayed: BlockRelayedEvent[] = []
  b.node.kernel.hooks.blockRelayed.tap('test', (r) => { relayed.push(r) })
  await waitFor('the handshake', () => a.p2p.peers().length === 1 && b.p2p.peers().length === 1)
  const dev = devWallet()
  const txs = [0, 1, 2].map((n) => transfer(params, dev, generateWallet().address, 1, n, { withKey: n === 0 }))
  // the block is made on a alone (b never heard of its transactions)
  const block = mineBlock(params, a.chain.tip(), { txs })
  await a.chain.processBlock(block, 'test')
  await waitFor('b to connect the block', () => b.chain.tip().hash === block.hash)
  t.equal((await b.chain.getBlockByHash(block.hash))?.transactions.length, 4)
  t.same(b.p2p.compactStats(), { rebuilt: 0, withRequest: 1, wholeBlock: 0 }, 'one request for the missing transactions')
  // the next block right behind it, while b may still be asking for the first one's
  // transactions: it waits for its parent rather than being taken for an orphan
  const more = [3, 4].map((n) => transfer(params, dev, generateWallet().address, 1, n))
  const first = mineBlock(params, block, { txs: more })
  const second = mineBlock(params, first)
  await a.chain.processBlock(first, 'test')
  await a.chain.processBlock(second, 'test')
  await waitFor('b to connect both', () => b.chain.tip().hash === second.hash)
  t.equal(b.p2p.score(a.p2p.peerId ?? ''), 0, 'no orphan charged to the honest announcer')
  t.same(relayed.map((r) => [r.hash, r.height, r.peerId, r.rebuilt]), [
    [block.hash, block.height, a.p2p.peerId, 'request'],
    [first.hash, first.height, a.p2p.peerId, 'request'],
    [second.hash, second.height, a.p2p.peerId, 'held']
  ], 'each block passed on once, with how it was rebuilt (b never heard of the first two\'s transactions; the third has none)')
  t.ok(relayed.every((r) => r.relayMs >= 0 && r.relayMs < 30_000), 'the time it spent here')
})

t.test('a block relayed on its proven work whose body then fails costs its originator, not the relay', async (t) => {
  const [a, b] = await startPeeredPair(t)
  const rogue = await startRogue(t, params, b.address, () => ourStatus(b.chain, nodeVersion(params)))
  await waitFor('the rogue to pass the handshake', () => b.p2p.peers().some((p) => p.peer_id === rogue.peerId))
  // valid header, work and envelope; the coinbase pays far more than the reward: a state rule
  const tip = b.chain.tip()
  const bad = mineBlock(params, tip, { coinbaseAmount: 1_000_000 })
  await rogue.node.services.pubsub.publish(topics(params).compact, encodeCompact(bad, encodeHeader(bad)))
  await waitFor('the relay (b) to refuse the body and charge the originator', () => b.p2p.score(rogue.peerId) >= PENALTY.invalidBlock)
  await waitFor('a, which heard it from b, to charge the originator too', () => a.p2p.score(rogue.peerId) >= PENALTY.invalidBlock)
  t.equal(a.p2p.score(b.p2p.peerId ?? ''), 0, 'the honest relay b costs nothing')
  t.equal(a.chain.tip().hash, tip.hash)
  t.equal(a.chain.getBlockMeta(bad.hash)?.status ?? 'invalid', 'invalid', 'a refused the block too')
})

t.test('an announcer that cannot name the missing transactions is asked for the whole block', async (t) => {
  const a = await startP2pNode()
  t.teardown(() => a.stop())
  const tip = a.chain.tip()
  const dev = devWallet()
  const block = mineBlock(params, tip, { txs: [transfer(params, dev, generateWallet().address, 1, 0)] })
  let wholeAsked = 0
  // the rogue answers no blocktxn, but serves the block itself
  const rogue = await startRogue(t, params, a.address, () => ourStatus(a.chain, nodeVersion(params)), {
    blocks: async function * () { wholeAsked++; yield encodeBlock(block) }
  })
  await waitFor('the rogue to pass the handshake', () => a.p2p.peers().some((p) => p.peer_id === rogue.peerId))
  await rogue.node.services.pubsub.publish(topics(params).compact, encodeCompact(block, encodeHeader(block)))
  await waitFor('a to connect the block', () => a.chain.tip().hash === block.hash)
  t.equal(wholeAsked, 1, 'the whole block was fetched once')
  t.same(a.p2p.compactStats(), { rebuilt: 0, withRequest: 0, wholeBlock: 1 })
  t.equal(a.p2p.score(rogue.peerId), 0, 'an announcer without blocktxn is not penalized')
})

t.test('a block our miner found is announced before our chain connects it, and only once', async (t) => {
  const [a, b] = await startPeeredPair(t)
  // b never heard of its transaction: it asks a, which serves it from the held block
  const tip = a.chain.tip()
  const found = mineBlock(params, tip, { txs: [transfer(params, devWallet(), generateWallet().address, 1, 0, { withKey: true })] })
  a.node.kernel.hooks.blockFound.call(found)
  await waitFor('b to connect the block a announced', () => b.chain.tip().hash === found.hash)
  t.equal(a.chain.tip().hash, tip.hash, 'a has not processed its own block yet')
  t.same(b.p2p.compactStats(), { rebuilt: 0, withRequest: 1, wholeBlock: 0 }, 'its transaction came from the held copy')
  await a.chain.processBlock(found, 'test')
  // the next block goes the same stream: once b has it, a second announcement of the first would have arrived
  const next = mineBlock(params, found)
  await a.chain.processBlock(next, 'test')
  await waitFor('b to connect the next block', () => b.chain.tip().hash === next.hash)
  t.equal(b.p2p.score(a.p2p.peerId ?? ''), 0, 'connecting it did not announce it again (a repeat costs the announcer)')
})

t.test('a relay lacking transactions passes the announcement on at once, and serves them once it has them', async (t) => {
  const [b, c] = await startPeeredPair(t)
  // neither b nor c has heard of the block's transaction; only its announcer can name it
  const block = mineBlock(params, b.chain.tip(), { txs: [transfer(params, devWallet(), generateWallet().address, 1, 0, { withKey: true })] })
  let cSaw = false
  const { promise: cHasIt, resolve: cGotIt } = Promise.withResolvers<void>()
  c.node.kernel.hooks.peerItemReceived.tap('test', (item) => { if (item.id === block.hash) { cSaw = true; cGotIt() } })
  let cSawFirst: boolean | null = null
  const rogue = await startRogue(t, params, b.address, () => ourStatus(b.chain, nodeVersion(params)), {
    // the announcer answers b's request only once c has the announcement (or after 10 s): a
    // relay that waited for the transactions before passing it on would make it wait the 10 s
    blocktxn: async (req) => {
      let timer: NodeJS.Timeout | undefined
      await Promise.race([cHasIt, new Promise((resolve) => { timer = setTimeout(resolve, 10_000) })])
      clearTimeout(timer)
      cSawFirst ??= cSaw
      return req.indexes.map((i) => encodeTx(block.transactions[i] as Transaction))
    }
  })
  await waitFor('the rogue to pass the handshake', () => b.p2p.peers().some((p) => p.peer_id === rogue.peerId))
  const relayed: BlockRelayedEvent[] = []
  b.node.kernel.hooks.blockRelayed.tap('test', (r) => { relayed.push(r) })
  await rogue.node.services.pubsub.publish(topics(params).compact, encodeCompact(block, encodeHeader(block)))
  await waitFor('b to connect the block', () => b.chain.tip().hash === block.hash)
  await waitFor('c to connect it, its transaction served by b', () => c.chain.tip().hash === block.hash)
  t.equal(cSawFirst, true, 'c had the announcement before b had the transaction')
  t.same(relayed.map((r) => [r.hash, r.rebuilt]), [[block.hash, 'request']], 'b relayed it while asking for the transaction')
  t.same(c.p2p.compactStats(), { rebuilt: 0, withRequest: 1, wholeBlock: 0 }, 'c asked b, which waited for its own answer')
  t.equal(b.p2p.score(rogue.peerId), 0, 'the honest announcer costs nothing')
  t.equal(c.p2p.score(b.p2p.peerId ?? ''), 0, 'nor the relay')
})
