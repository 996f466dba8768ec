// The test bed's probe: hooks become events (first arrival only, bounded), and its HTTP answers
// a bad request with a 4xx and the one error shape.
import t from 'tap'
import { createHooks } from '../../core/kernel/hooks.ts'
import { EventRecorder } from '../../testbed/probe/recorder.ts'
import { startProbeServer } from '../../testbed/probe/routes.ts'
import type { ProbeDeps } from '../../testbed/probe/routes.ts'
import type { ChainService } from '../../core/chain/chain-service.ts'
import type { MempoolService } from '../../core/chain/mempool-service.ts'
import type { Block, Transaction } from '../../core/chain/types.ts'
import { encodeBlock, encodeTx } from '../../core/chain/tx-codec.ts'
import { devWallet, generateWallet, testParams, transfer } from '../helpers/chain.ts'
import { freePort } from '../helpers/ports.ts'

const block = (height: number): Block => ({ version: 1, height, timestamp: 1, previous_hash: `p${height}`, merkle_root: '', difficulty: 1, bits: 0x3fffffff, miner: 'm', nonce: 0, hash: `h${height}`, transactions: [], quantum_signature: null })

t.test('the recorder keeps the first arrival of each block and tx, and every hook a figure needs', async (t) => {
  const hooks = createHooks()
  const rec = new EventRecorder()
  rec.tap(hooks, 'probe')
  hooks.peerItemReceived.call({ kind: 'block', id: 'h5', peerId: 'a', height: 5, previousHash: 'h4' })
  hooks.peerItemReceived.call({ kind: 'block', id: 'h5', peerId: 'b', height: 5, previousHash: 'h4' })
  hooks.peerItemReceived.call({ kind: 'tx', id: 'tx1', peerId: 'b' })
  hooks.blockRelayed.call({ hash: 'h5', height: 5, peerId: 'a', relayMs: 2.5, rebuilt: 'held' })
  hooks.blockConnected.call({ block: block(5), receipts: [], reorg: false, syncing: true })
  hooks.reorg.call({ from: { height: 5, hash: 'h5' }, to: { height: 6, hash: 'x6' }, forkPoint: { height: 4, hash: 'h4' }, disconnected: 1, connected: 2 })
  hooks.txRemoved.call({ tx: { transaction_id: 'tx1' } as Transaction, reason: 'expired' })
  t.same(rec.events.map((e) => e.type), ['block_seen', 'tx_seen', 'block_relayed', 'block_connected', 'reorg', 'tx_removed'])
  t.match(rec.events[0], { type: 'block_seen', hash: 'h5', height: 5, parent: 'h4', peer: 'a' })
  t.match(rec.events[2], { type: 'block_relayed', hash: 'h5', peer: 'a', relay_ms: 2.5, rebuilt: 'held' })
  t.match(rec.events[3], { type: 'block_connected', syncing: true, txs: -1 })
  t.match(rec.events[4], { disconnected: 1, fork_height: 4, to_height: 6 })
  t.same(rec.page(1, 2).events.map((e) => e.type), ['tx_seen', 'block_relayed'])
  t.equal(rec.page(1, 2).next, 3)
})

t.test('an admitted transaction is recorded with its wire size', async (t) => {
  const hooks = createHooks()
  const rec = new EventRecorder()
  rec.tap(hooks, 'probe')
  const tx = transfer(testParams(), devWallet(), generateWallet().address, 1, 0)
  hooks.txAdmitted.call(tx)
  t.match(rec.events[0], { type: 'tx_admitted', id: tx.transaction_id, bytes: encodeTx(tx).length })
})

t.test('the recorder is bounded: past its cap it counts instead of keeping', async (t) => {
  const hooks = createHooks()
  const rec = new EventRecorder(3)
  rec.tap(hooks, 'probe')
  for (let i = 0; i < 10; i++) hooks.txAdmitted.call({ transaction_id: `t${i}` } as Transaction)
  for (let i = 0; i < 10; i++) hooks.peerItemReceived.call({ kind: 'tx', id: `flood${i}`, peerId: 'x' })
  t.equal(rec.events.length, 3)
  t.equal(rec.dropped, 7 + 3, 'the admitted past the cap and the first-seen ones the id set still took')
})

t.test('the probe HTTP: answers, and a 4xx for each bad request', async (t) => {
  const added: Transaction[] = []
  const deps: ProbeDeps = {
    recorder: new EventRecorder(),
    chain: {
      tip: () => ({ height: 2, hash: 'h2', work: '7' }),
      getBlockByHeight: async (h: number) => h <= 2 ? block(h) : undefined,
      getAccount: () => ({ balance: 5n, nonce: 1, publicKey: null }),
      getReceipt: async () => undefined
    } as unknown as ChainService,
    mempool: {
      size: 0,
      list: () => [],
      nextNonce: () => 3,
      add: (tx: Transaction) => { if (tx.transaction_id !== 'good') throw new Error('nonce 0 but the sender\'s next nonce is 3'); added.push(tx); return tx }
    } as unknown as MempoolService,
    peers: undefined,
    miner: undefined
  }
  const port = await freePort()
  const close = await startProbeServer(port, deps)
  t.teardown(close)
  const url = `http://127.0.0.1:${port}`
  const get = async (p: string): Promise<{ status: number; body: unknown }> => { const r = await fetch(url + p); return { status: r.status, body: await r.json() } }
  const post = async (p: string, body: string): Promise<{ status: number; body: unknown }> => { const r = await fetch(url + p, { method: 'POST', body }); return { status: r.status, body: await r.json() } }

  t.match(await get('/state'), { status: 200, body: { height: 2, hash: 'h2', work: '7', peers: [], mining: false, compact: null } })
  const chain = await get('/chain?from=1')
  t.match(chain, { status: 200, body: [{ height: 1, hash: 'h1', txBytes: 0 }, { height: 2, hash: 'h2', txBytes: 0 }] })
  t.equal((chain.body as Array<{ bytes: number }>)[0]?.bytes, encodeBlock(block(1)).length, 'each block\'s wire size')
  // the compact-block counts of a peers service that keeps them
  t.match(await get('/sent'), { status: 200, body: null }, 'no p2p plugin: nothing counted')
  deps.peers = {
    peers: () => [],
    syncState: () => 'synced',
    compactStats: () => ({ rebuilt: 4, withRequest: 1, wholeBlock: 0 }),
    sentBytes: () => ({ protocols: { txinv: 120, 'gossip/cmpctblock': 2400 }, blocks: { h2: 2400 } })
  }
  t.match(await get('/state'), { status: 200, body: { compact: { rebuilt: 4, withRequest: 1, wholeBlock: 0 } } })
  t.same(await get('/sent'), { status: 200, body: { protocols: { txinv: 120, 'gossip/cmpctblock': 2400 }, blocks: { h2: 2400 } } }, 'the node\'s own sent-bytes counts')
  // the miner's hash count: 0 without a miner, its counter with one
  t.match(await get('/state'), { body: { hashes: 0 } })
  deps.miner = { status: () => ({ enabled: true, running: true, blocks_mined: 0, miner_address: 'm', simulation_mode: false, qrng_source: '', hash_rate: 0, halted_reason: null }), hashesTried: () => 123_456 }
  t.match(await get('/state'), { status: 200, body: { mining: true, hashes: 123_456 } })
  t.match(await get('/account/abc'), { status: 200, body: { nonce: 3, balance: '5' } })
  t.match(await get('/receipt/x'), { status: 200, body: null })
  t.match(await post('/tx', JSON.stringify({ transaction_id: 'good' })), { status: 200, body: { id: 'good' } })
  t.equal(added.length, 1)
  t.match(await post('/tx', JSON.stringify({ transaction_id: 'bad' })), { status: 400, body: { error: /next nonce/ } })
  t.match(await post('/tx', '{not json'), { status: 400, body: { error: 'body is not JSON' } })
  t.match(await get('/events?since=-1'), { status: 400, body: { error: 'since must be a non-negative integer' } })
  t.match(await get('/nothing'), { status: 404, body: { error: 'no such route' } })
  const big = await fetch(url + '/tx', { method: 'POST', body: 'x'.repeat(1024 * 1024 + 10) }).then(async (r) => ({ status: r.status, body: await r.json() as unknown }), () => ({ status: 413, body: { error: 'connection closed' } }))
  t.equal(big.status, 413, 'a body over 1 MiB is refused')
})
