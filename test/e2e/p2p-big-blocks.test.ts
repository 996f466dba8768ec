// Issue 12 item 1, with real processes: node A mines blocks full of the largest transactions
// the rules allow (its template filled by count, bytes and gas, as the miner's is), node B
// follows it over p2p. Before the byte limit, ~32 such transactions made a valid block larger
// than the 8 MiB sync frame, which no peer could download; now every block stays within
// maxBlockBytes, gossip and sync carry each one, and B stays at A's tip.
import t from 'tap'
import { spawnNode, waitUntil } from '../plugins/p2p/fixtures/processes.ts'
import type { NodeProcess } from '../plugins/p2p/fixtures/processes.ts'
import { cleanup, devWallet } from '../helpers/chain.ts'
import { signTransaction } from '../../core/chain/tx.ts'
import type { Transaction, TxData } from '../../core/chain/types.ts'
import { inBlockBytes, txSize } from '../../core/chain/block-size.ts'
import { MAX_DATA_BYTES } from '../../core/chain/tx-rules.ts'
import { networkParams } from '../../config/networks.ts'

const params = networkParams('devnet')
const dev = devWallet()
// ~32 of them made a block larger than the 8 MiB sync frame before the byte limit (issue 12)
const COUNT = 32

async function start (t: { teardown(fn: () => unknown): void }, ...args: Parameters<typeof spawnNode>): Promise<NodeProcess> {
  const node = await spawnNode(...args)
  t.teardown(async () => { await node.stop(); cleanup(node.dataDir) })
  return node
}

/**
 * A transaction as large as the rules allow: MAX_DATA_BYTES of data JSON, in a field the
 * binary form cannot shrink (text that is not hex; a call ignores `code`), so it is as large
 * on the wire and on disk as in JSON.
 */
function largestTx (nonce: number): Transaction {
  const data: TxData = { type: 'call', to: 'ab'.repeat(20), calldata: '', gas_limit: 50_000, code: '' }
  if (nonce === 0) data.public_key = Buffer.from(dev.publicKey).toString('hex')
  data.code = 'z'.repeat(MAX_DATA_BYTES - Buffer.byteLength(JSON.stringify(data)))
  return signTransaction(params.chainId, { sender: dev.address, recipient: 'contract', amount: 0, fee: 0.001, timestamp: Date.now() / 1000, nonce, data }, dev.seed)
}

/** user transactions of each block the node produced */
async function producedCounts (node: NodeProcess): Promise<number[]> {
  return ((await node.request('GET', '/produced')).json as Array<{ txs: number }>).map((b) => b.txs)
}

t.test('A mines blocks full of the largest transactions; B stays in sync', async (t) => {
  const txs = Array.from({ length: COUNT }, (_, n) => largestTx(n))
  const perBlock = Math.floor(params.maxBlockBytes / inBlockBytes(txSize(txs[1] as Transaction)))
  t.ok(perBlock >= 2 && perBlock * 3 <= COUNT, `${perBlock} of these ${txSize(txs[1] as Transaction)}-byte transactions fit one block`)
  t.ok(COUNT * txSize(txs[1] as Transaction) > 8 * 1024 * 1024, 'together they are more than one sync frame (8 MiB)')

  const a = await start(t, { name: 'a', produce: false, intervalMs: 300 })
  const b = await start(t, { name: 'b', peers: [a.address] })
  await waitUntil('a and b to see each other', async () => (await Promise.all([a.state(), b.state()])).every((s) => s.peers.length === 1))

  // the whole backlog waits in A's mempool first, so that every template can be filled
  for (const tx of txs) {
    const res = await a.request('POST', '/tx', tx)
    t.equal(res.status, 200, `nonce ${tx.nonce}: ${JSON.stringify(res.json)}`)
  }
  t.equal((await a.state()).mempool, COUNT)
  await a.request('POST', '/produce', { on: true })

  // a node busy connecting a 2 MB block may answer a poll late: that poll counts as "not yet"
  const confirmedOnB = async (tx: Transaction): Promise<boolean> => ((await b.request('GET', `/tx/${tx.transaction_id}`)).json as { confirmed: boolean }).confirmed
  await waitUntil('every transaction confirmed on b, and b at a\'s tip', async () => {
    try {
      if (!await confirmedOnB(txs[txs.length - 1] as Transaction)) return false
      const seen = await Promise.all(txs.map(confirmedOnB))
      const [sa, sb] = await Promise.all([a.state(), b.state()])
      return seen.every(Boolean) && sa.hash === sb.hash
    } catch {
      return false
    }
  }, 180_000)

  const counts = (await producedCounts(a)).filter((n) => n > 0)
  t.equal(counts.reduce((s, n) => s + n, 0), COUNT, `every transaction mined once (per block: ${counts.join(' ')})`)
  t.ok(counts.every((n) => n <= perBlock), 'no block holds more than the byte limit allows')
  t.same(counts.slice(0, Math.floor(COUNT / perBlock)), Array(Math.floor(COUNT / perBlock)).fill(perBlock), 'blocks filled to the byte limit while the backlog lasted')
  await a.request('POST', '/produce', { on: false })
  await waitUntil('b to report itself synced at a\'s tip', async () => {
    try {
      const [sa, sb] = await Promise.all([a.state(), b.state()])
      return sb.sync_state === 'synced' && sa.hash === sb.hash
    } catch {
      return false
    }
  }, 60_000)
  t.equal((await b.state()).peers.length, 1, 'b is still connected to a')
  t.notOk(b.log.some((l) => l.includes('peer banned') || l.includes('rejected gossip')), 'b neither banned nor rejected anything from a')
})
