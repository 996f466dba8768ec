// The probe's HTTP answers, on 127.0.0.1 (the test bed is the only client):
//   GET  /state                    tip, sync state, peers, mempool size, miner status and hash count (ProbeState)
//   GET  /events?since=N&limit=M   recorded events from index N (NodeEvent[], next index)
//   GET  /chain?from=H&to=H        main-chain blocks with their transaction ids (ChainBlock[])
//   GET  /sent                     what the node sent at the application level, by protocol and per recent block (SentBytesSnapshot; null without a p2p plugin that counts)
//   GET  /pending                  transaction ids in the mempool
//   GET  /receipt/<tx id>          the contract receipt of a confirmed transaction, or null
//   GET  /account/<address>        { nonce (next to use, pending counted), balance (bohm, string) }
//   POST /tx                       a signed transaction → 200 { id } or 400 { error }
// Errors are { "error": "..." }; a body over 1 MiB is refused.
import http from 'node:http'
import type { ChainService } from '../../core/chain/chain-service.ts'
import type { MempoolService } from '../../core/chain/mempool-service.ts'
import type { MinerService, PeerService } from '../../core/kernel/services.ts'
import type { Transaction } from '../../core/chain/types.ts'
import { encodeBlock, encodeTx } from '../../core/chain/tx-codec.ts'
import type { ChainBlock, ProbeState } from '../events.ts'
import type { EventRecorder } from './recorder.ts'

export interface ProbeDeps {
  recorder: EventRecorder
  chain: ChainService
  mempool: MempoolService
  peers: PeerService | undefined
  miner: MinerService | undefined
}

const MAX_BODY = 1024 * 1024
const MAX_PAGE = 50_000
const MAX_CHAIN_SPAN = 2_000

class ProbeError extends Error {}

function intParam (q: URLSearchParams, name: string, fallback: number): number {
  const raw = q.get(name)
  if (raw === null) return fallback
  const v = Number(raw)
  if (!Number.isSafeInteger(v) || v < 0) throw new ProbeError(`${name} must be a non-negative integer`)
  return v
}

function state (d: ProbeDeps): ProbeState {
  const tip = d.chain.tip()
  const miner = d.miner?.status()
  return {
    pid: process.pid,
    height: tip.height,
    hash: tip.hash,
    work: tip.work,
    sync_state: d.peers?.syncState() ?? null,
    peers: (d.peers?.peers() ?? []).map((p) => ({ peer_id: p.peer_id, address: p.address })),
    mempool: d.mempool.size,
    mining: miner?.enabled === true && miner.running,
    hash_rate: miner?.hash_rate ?? 0,
    hashes: d.miner?.hashesTried?.() ?? 0,
    blocks_mined: miner?.blocks_mined ?? 0,
    compact: d.peers?.compactStats?.() ?? null
  }
}

async function chainBlocks (d: ProbeDeps, from: number, to: number): Promise<ChainBlock[]> {
  const out: ChainBlock[] = []
  const last = Math.min(to, d.chain.tip().height, from + MAX_CHAIN_SPAN - 1)
  for (let h = from; h <= last; h++) {
    const b = await d.chain.getBlockByHeight(h)
    if (b === undefined) break
    const txs = b.transactions.slice(1)
    out.push({
      height: b.height,
      hash: b.hash,
      previous_hash: b.previous_hash,
      timestamp: b.timestamp,
      miner: b.miner,
      txids: txs.map((tx) => tx.transaction_id),
      bytes: encodeBlock(b).length,
      txBytes: txs.reduce((n, tx) => n + encodeTx(tx).length, 0)
    })
  }
  return out
}

async function answer (d: ProbeDeps, method: string, url: URL, body: Buffer): Promise<unknown> {
  const p = url.pathname
  if (method === 'GET' && p === '/state') return state(d)
  if (method === 'GET' && p === '/events') return d.recorder.page(intParam(url.searchParams, 'since', 0), Math.min(intParam(url.searchParams, 'limit', MAX_PAGE), MAX_PAGE))
  if (method === 'GET' && p === '/chain') return await chainBlocks(d, intParam(url.searchParams, 'from', 0), intParam(url.searchParams, 'to', Number.MAX_SAFE_INTEGER))
  if (method === 'GET' && p === '/sent') return d.peers?.sentBytes?.() ?? null
  if (method === 'GET' && p === '/pending') return d.mempool.list().map((tx) => tx.transaction_id)
  if (method === 'GET' && p.startsWith('/receipt/')) return (await d.chain.getReceipt(p.slice('/receipt/'.length))) ?? null
  if (method === 'GET' && p.startsWith('/account/')) {
    const address = p.slice('/account/'.length)
    return { nonce: d.mempool.nextNonce(address), balance: d.chain.getAccount(address).balance.toString() }
  }
  if (method === 'POST' && p === '/tx') {
    let tx: Transaction
    try { tx = JSON.parse(body.toString('utf8')) as Transaction } catch { throw new ProbeError('body is not JSON') }
    try { return { id: d.mempool.add(tx).transaction_id } } catch (err) { throw new ProbeError((err as Error).message) }
  }
  return undefined
}

/** Listens on 127.0.0.1:port; resolves with a function that closes the server. */
export async function startProbeServer (port: number, d: ProbeDeps): Promise<() => Promise<void>> {
  const server = http.createServer((req, res) => {
    const reply = (status: number, value: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(value))
    }
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (c: Buffer) => {
      size += c.length
      if (size > MAX_BODY) { reply(413, { error: 'body over 1 MiB' }); req.destroy() } else chunks.push(c)
    })
    req.on('end', () => {
      answer(d, req.method ?? 'GET', new URL(req.url ?? '/', 'http://probe'), Buffer.concat(chunks)).then(
        (value) => { if (value === undefined) reply(404, { error: 'no such route' }); else reply(200, value) },
        (err: unknown) => { reply(err instanceof ProbeError ? 400 : 500, { error: (err as Error).message }) })
    })
  })
  server.keepAliveTimeout = 30_000
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(port, '127.0.0.1', resolve) })
  return async () => { await new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections() }) }
}
