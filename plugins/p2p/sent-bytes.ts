// What this node sends, counted at the application level (docs/p2p.md "Sent bytes"): the bytes
// each negotiated stream is handed (the traffic meter wraps every stream's `send`), by protocol,
// with gossipsub's one stream per peer split by topic and control (gossip-bytes.ts), plus per
// block hash the bytes this node sent to relay that block. Noise and yamux framing are not in
// these counts (the TCP totals of traffic-meter.ts are). Label values come from fixed sets
// (our protocols, our topics, libp2p's own protocols, `other`): nothing a peer sends can grow
// the operator's scrape.
import type { NetworkParams } from '../../core/chain/params.ts'
import type { SentBytesProtocol, SentBytesSnapshot } from '../../core/kernel/services.ts'
import { parseBlocksRequest, parseBlockTxnRequest, protocolId, topics } from './protocol.ts'
import type { Method } from './protocol.ts'
import { splitRpcFrame } from './gossip-bytes.ts'
import type { SentChunk } from './gossip-bytes.ts'
import { LruMap } from './peer-budget.ts'

const METHODS: readonly Method[] = ['status', 'headers', 'blocks', 'blocktxn', 'txinv', 'gettx']
/** libp2p's own protocols this node runs (identify, its push, ping) by their short names */
const LIBP2P_PROTOCOLS: ReadonlyMap<string, SentBytesProtocol> = new Map([['/ipfs/id/1.0.0', 'identify'], ['/ipfs/id/push/1.0.0', 'identify-push'], ['/ipfs/ping/1.0.0', 'ping']])
const MESHSUB = '/meshsub/'
const GOSSIP_CONTROL = 'gossip/control'
/** a protocol id outside the sets above (none today: the node registers and dials only those) */
const OTHER_PROTOCOL = 'other'
/** recent blocks whose relay bytes are kept (a test bed run of an hour holds ~720 at 5 s) */
export const SENT_BLOCKS_KEPT = 2048

/** the bytes multistream-select sends on a stream, each side alike, when the one protocol proposed is accepted: its header and the protocol id, each length-prefixed */
export function negotiationBytes (protocol: string): number {
  const line = (s: string): number => {
    const n = Buffer.byteLength(s) + 1 // the newline
    return n + varintLength(n)
  }
  return line('/multistream/1.0.0') + line(protocol)
}

function varintLength (n: number): number {
  let len = 1
  while (n >= 0x80) { n = Math.floor(n / 0x80); len++ }
  return len
}

export interface SentBytesOptions {
  params: NetworkParams
  /** the hash of the block a compact announcement names (undefined: not one) */
  announcedBlock(data: Uint8Array): string | undefined
  maxBlocks?: number
}

export class SentBytes {
  readonly #o: SentBytesOptions
  /** protocol id → label; gossip topic → label */
  readonly #protocols = new Map<string, SentBytesProtocol>()
  readonly #topics = new Map<string, SentBytesProtocol>()
  readonly #compactTopic: string
  readonly #totals = new Map<SentBytesProtocol, number>()
  readonly #blocks: LruMap<number>

  constructor (o: SentBytesOptions) {
    this.#o = o
    for (const m of METHODS) this.#protocols.set(protocolId(o.params, m), m)
    const t = topics(o.params)
    this.#compactTopic = t.compact
    this.#topics.set(t.compact, 'gossip/cmpctblock').set(t.blocks, 'gossip/blocks').set(t.txs, 'gossip/txs')
    this.#blocks = new LruMap(o.maxBlocks ?? SENT_BLOCKS_KEPT)
  }

  #label (protocol: string): SentBytesProtocol {
    return this.#protocols.get(protocol) ?? LIBP2P_PROTOCOLS.get(protocol) ?? (protocol.startsWith(MESHSUB) ? GOSSIP_CONTROL : OTHER_PROTOCOL)
  }

  #add (label: SentBytesProtocol, bytes: number): void { this.#totals.set(label, (this.#totals.get(label) ?? 0) + bytes) }

  /** a stream of `protocol` was negotiated: what this side sent to agree on it */
  negotiated (protocol: string): void { this.#add(this.#label(protocol), negotiationBytes(protocol)) }

  /** bytes handed to a stream of `protocol` */
  sent (protocol: string, chunk: SentChunk): void {
    if (!protocol.startsWith(MESHSUB)) { this.#add(this.#label(protocol), chunk.byteLength); return }
    const parts = splitRpcFrame(chunk)
    // not exactly one RPC frame (gossipsub sends one per call): counted whole as control
    if (parts === null) { this.#add(GOSSIP_CONTROL, chunk.byteLength); return }
    for (const p of parts) {
      if (p.kind === 'control') { this.#add(GOSSIP_CONTROL, p.bytes); continue }
      this.#add(this.#topics.get(p.topic) ?? GOSSIP_CONTROL, p.bytes)
      if (p.topic !== this.#compactTopic) continue
      const hash = this.#o.announcedBlock(chunk.subarray(p.dataStart, p.dataEnd))
      if (hash !== undefined) this.addBlock(hash, p.bytes)
    }
  }

  /**
   * A request this node wrote: one for a block's transactions (blocktxn) or for whole blocks
   * (blocks: the fallback of a compact block not rebuilt, and sync) is charged to those blocks,
   * with what negotiating its stream cost; a request naming several blocks is shared out evenly.
   */
  requestSent (method: Method, request: unknown, bytes: number): void {
    if (method === 'blocktxn') this.addBlock(parseBlockTxnRequest(request).hash, bytes + this.#negotiation(method))
    else if (method === 'blocks') {
      const { hashes } = parseBlocksRequest(request)
      const total = bytes + this.#negotiation(method)
      const each = Math.floor(total / hashes.length)
      hashes.forEach((h, i) => { this.addBlock(h, each + (i === 0 ? total - each * hashes.length : 0)) })
    }
  }

  /** A response this node wrote whole (each frame's bytes): blocktxn answers and whole blocks are charged to their blocks. */
  responseSent (method: Method, request: unknown, frames: readonly number[]): void {
    if (method === 'blocktxn') this.addBlock(parseBlockTxnRequest(request).hash, frames.reduce((a, b) => a + b, 0) + this.#negotiation(method))
    else if (method === 'blocks') {
      // blocks are sent in the order asked, stopping at one we lack or at the byte budget
      const { hashes } = parseBlocksRequest(request)
      frames.forEach((n, i) => { this.addBlock(hashes[i] as string, n + (i === 0 ? this.#negotiation(method) : 0)) })
    }
  }

  #negotiation (method: Method): number { return negotiationBytes(protocolId(this.#o.params, method)) }

  /** bytes sent to relay block `hash` (an announcement, a request for or an answer with its transactions or itself) */
  addBlock (hash: string, bytes: number): void { this.#blocks.set(hash, (this.#blocks.get(hash) ?? 0) + bytes) }

  snapshot (): SentBytesSnapshot {
    const blocks: Record<string, number> = {}
    for (const [hash, bytes] of this.#blocks.entries()) blocks[hash] = bytes
    return { protocols: Object.fromEntries(this.#totals), blocks }
  }
}
