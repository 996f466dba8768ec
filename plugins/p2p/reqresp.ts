// The request/response protocols (status, headers, blocks, blocktxn, gettx, and the one-way
// txinv announcement): one stream per request, the
// request as one frame, the response as one or more frames, then the responder closes.
// Every request is bounded in time on both sides; garbage is reported as misbehaviour.
import type { Libp2p, Stream, Connection } from '@libp2p/interface'
import { peerIdFromString } from '@libp2p/peer-id'
import type { NetworkParams } from '../../core/chain/params.ts'
import { FRAME_PREFIX_BYTES, readFrames, UnreadResponseError, writeFrame } from './framing.ts'
import {
  decodeJson, encodeJson, LIMITS, parseBlocksRequest, parseBlockTxnRequest, parseGetTxRequest, parseHeadersRequest, parseHeadersResponse, parseStatus,
  parseTxInv, protocolId, WireError
} from './protocol.ts'
import type { BlocksRequest, BlockTxnRequest, HeadersRequest, Method, StatusMessage, TxInv } from './protocol.ts'

/**
 * The blocks of a response in their binary forms, not decoded yet (sync decodes them, and
 * connects those before a frame that is no block), and its size on the wire (bytes).
 */
export type BlocksResponse = Uint8Array[] & { bytes?: number }

export class RequestTimeoutError extends Error { override name = 'RequestTimeoutError' }

export interface RequestHandlers {
  /** the requester's status arrived; answer with ours */
  status(remote: StatusMessage, peerId: string): StatusMessage
  /** hex headers after the fork point of the locator, oldest first; null refuses the request (over its rate) */
  headers(req: HeadersRequest, peerId: string): Promise<string[] | null>
  /** binary blocks in the requested order, stopping at the first one we do not have or at the byte budget */
  blocks(req: BlocksRequest): AsyncIterable<Uint8Array>
  // protocol 2 (compact blocks, transaction announcements); a server without them does not
  // register those protocols (a test's stand-in peer)
  /** the binary forms of a block's transactions at the requested indexes (none: we do not have the block) */
  blocktxn?(req: BlockTxnRequest, peerId: string): Promise<Uint8Array[]>
  /** a peer announced transactions */
  txinv?(inv: TxInv, peerId: string): void
  /** transaction bodies by id, one frame each (empty: we do not have it) */
  gettx?(ids: string[], peerId: string): Uint8Array[]
  misbehaved(peerId: string, reason: string): void
  /** a peer stopped reading a response we were writing (its slot was freed) */
  unread?(peerId: string, method: Method): void
}

export interface ReqRespOptions {
  node: Libp2p
  params: NetworkParams
  timeoutMs: number
  /** the largest transaction's binary form (txinv sizes are checked against it) */
  maxTxBytes?: number
  /**
   * how long a response write may wait for the peer to read (default: the request timeout);
   * a peer that reads nothing for this long loses the stream and the serving slot it held
   */
  drainMs?: number
  /** a request was written: its frame's bytes (the relay accounting of sent-bytes.ts) */
  onRequestSent?(method: Method, request: unknown, bytes: number): void
  /** a response was written whole: each frame's bytes, in order */
  onResponseSent?(method: Method, request: unknown, frames: number[]): void
}

/** a request refused because the peer asks too often (the stream is reset, nothing is sent) */
export class RateLimitedError extends Error { override name = 'RateLimitedError' }

/** Aborts the stream when the request takes longer than allowed. */
function deadline (stream: Stream, ms: number): () => void {
  const timer = setTimeout(() => stream.abort(new RequestTimeoutError(`request timed out after ${ms} ms`)), ms)
  return () => clearTimeout(timer)
}

async function readRequest (stream: Stream): Promise<unknown> {
  const frames = readFrames(stream, LIMITS.maxFrameBytes)
  const first = await frames.next()
  if (first.done === true) throw new WireError('empty request')
  return decodeJson(first.value)
}

export async function registerHandlers (o: ReqRespOptions, h: RequestHandlers): Promise<void> {
  const serve = (method: Method, respond: (request: unknown, peerId: string) => AsyncIterable<unknown>) =>
    async (stream: Stream, connection: Connection): Promise<void> => {
      const peerId = connection.remotePeer.toString()
      const done = deadline(stream, o.timeoutMs)
      const drainMs = o.drainMs ?? o.timeoutMs
      try {
        const request = await readRequest(stream)
        const frames: number[] = []
        for await (const item of respond(request, peerId)) {
          const payload = item instanceof Uint8Array ? item : encodeJson(item)
          await writeFrame(stream, payload, drainMs)
          frames.push(FRAME_PREFIX_BYTES + payload.length)
        }
        // what is still buffered must be taken within the same deadline
        await stream.close({ signal: AbortSignal.timeout(drainMs) }).catch((err: unknown) => {
          throw ['TimeoutError', 'AbortError'].includes((err as Error).name) ? new UnreadResponseError(`the peer did not take the end of the response in ${drainMs} ms`) : err
        })
        o.onResponseSent?.(method, request, frames)
      } catch (err) {
        if (err instanceof WireError) h.misbehaved(peerId, `${method} request: ${err.message}`)
        if (err instanceof UnreadResponseError) h.unread?.(peerId, method)
        stream.abort(err as Error)
      } finally {
        done()
      }
    }
  // Concurrent requests per connection: a syncing peer keeps one headers request and a few
  // body requests in flight; more would only let one peer make us read the disk for it.
  await o.node.handle(protocolId(o.params, 'status'), serve('status', async function * (req, peerId) {
    yield h.status(parseStatus(req), peerId)
  }), { maxInboundStreams: 2 })
  await o.node.handle(protocolId(o.params, 'headers'), serve('headers', async function * (req, peerId) {
    const headers = await h.headers(parseHeadersRequest(req), peerId)
    if (headers === null) throw new RateLimitedError('headers requests over the rate')
    yield { headers }
  }), { maxInboundStreams: 2 })
  await o.node.handle(protocolId(o.params, 'blocks'), serve('blocks', (req) => h.blocks(parseBlocksRequest(req))), { maxInboundStreams: 4 })
  const { blocktxn, txinv, gettx } = h
  if (blocktxn !== undefined) {
    await o.node.handle(protocolId(o.params, 'blocktxn'), serve('blocktxn', async function * (req, peerId) {
      yield * await blocktxn(parseBlockTxnRequest(req), peerId)
    }), { maxInboundStreams: 4 })
  }
  const maxTxBytes = o.maxTxBytes ?? o.params.maxTxBytes
  // an announcement is pushed and answered with nothing: the receiver asks by gettx
  if (txinv !== undefined) {
    await o.node.handle(protocolId(o.params, 'txinv'), serve('txinv', async function * (req, peerId) {
      txinv(parseTxInv(req, maxTxBytes), peerId)
    }), { maxInboundStreams: 4 })
  }
  if (gettx !== undefined) {
    await o.node.handle(protocolId(o.params, 'gettx'), serve('gettx', async function * (req, peerId) {
      yield * gettx(parseGetTxRequest(req).ids, peerId)
    }), { maxInboundStreams: 4 })
  }
}

export class ReqRespClient {
  readonly #o: ReqRespOptions

  constructor (o: ReqRespOptions) { this.#o = o }

  async status (peerId: string, ours: StatusMessage): Promise<StatusMessage> {
    const [frame] = await this.#request(peerId, 'status', ours, 1, LIMITS.maxFrameBytes)
    if (frame === undefined) throw new WireError('empty status response')
    return parseStatus(decodeJson(frame))
  }

  async headers (peerId: string, req: HeadersRequest): Promise<string[]> {
    const [frame] = await this.#request(peerId, 'headers', req, 1, LIMITS.maxFrameBytes)
    if (frame === undefined) throw new WireError('empty headers response')
    const { headers } = parseHeadersResponse(decodeJson(frame))
    if (headers.length > req.max) throw new WireError(`asked for ${req.max} headers, got ${headers.length}`)
    return headers
  }

  /** Each block sent (maybe fewer than asked: the byte budget), as its frame; decodeBlockFrame gives the block. */
  async blocks (peerId: string, hashes: string[]): Promise<BlocksResponse> {
    const frames: BlocksResponse = await this.#request(peerId, 'blocks', { hashes }, hashes.length, LIMITS.maxBlocksResponseBytes)
    frames.bytes = frames.reduce((n, f) => n + f.byteLength, 0)
    return frames
  }

  /** The transactions at `indexes` of an announced block, in order (fewer: the peer lacks the block). */
  async blocktxn (peerId: string, req: BlockTxnRequest, maxTxBytes: number): Promise<Uint8Array[]> {
    return await this.#request(peerId, 'blocktxn', req, req.indexes.length, req.indexes.length * (maxTxBytes + 4))
  }

  async txinv (peerId: string, inv: TxInv): Promise<void> {
    await this.#request(peerId, 'txinv', inv, 0, 0)
  }

  async gettx (peerId: string, ids: string[], maxTxBytes: number): Promise<Uint8Array[]> {
    return await this.#request(peerId, 'gettx', { ids }, ids.length, ids.length * (maxTxBytes + 4))
  }

  /** `budget`: a frame may start only while the response holds fewer bytes (so at most budget + one frame) */
  async #request (peerId: string, method: Method, body: unknown, maxFrames: number, budget: number): Promise<Uint8Array[]> {
    const signal = AbortSignal.timeout(this.#o.timeoutMs)
    let stream: Stream
    try {
      stream = await this.#o.node.dialProtocol(peerIdFromString(peerId), protocolId(this.#o.params, method), { signal })
    } catch (err) {
      if (signal.aborted) throw new RequestTimeoutError(`${method} request to ${peerId} timed out`)
      throw err
    }
    const onAbort = (): void => stream.abort(new RequestTimeoutError(`${method} request to ${peerId} timed out after ${this.#o.timeoutMs} ms`))
    signal.addEventListener('abort', onAbort, { once: true })
    try {
      const request = encodeJson(body)
      await writeFrame(stream, request)
      this.#o.onRequestSent?.(method, body, FRAME_PREFIX_BYTES + request.length)
      await stream.close()
      const out: Uint8Array[] = []
      let bytes = 0
      for await (const f of readFrames(stream, LIMITS.maxFrameBytes)) {
        if (out.length >= maxFrames) throw new WireError(`${method} response has more than ${maxFrames} frames`)
        if (out.length > 0 && bytes >= budget) throw new WireError(`${method} response goes on past ${budget} bytes`)
        out.push(f)
        bytes += f.length
      }
      return out
    } catch (err) {
      if (signal.aborted) throw new RequestTimeoutError(`${method} request to ${peerId} timed out after ${this.#o.timeoutMs} ms`)
      stream.abort(err as Error)
      throw err
    } finally {
      signal.removeEventListener('abort', onAbort)
    }
  }
}
