// Length-prefixed frames on a libp2p stream: a 4-byte big-endian length, then the payload.
// The reader refuses a frame longer than the limit before buffering it, so a peer cannot make
// us hold more than one frame's worth of its garbage.
import { WireError } from './protocol.ts'

type Chunk = Uint8Array | { subarray(): Uint8Array }

/** The part of a libp2p Stream this module writes to. */
export interface FrameSink {
  send(data: Uint8Array): boolean
  onDrain(options?: { signal?: AbortSignal }): Promise<void>
}

/** The reader did not take what we sent within the drain deadline. */
export class UnreadResponseError extends Error { override name = 'UnreadResponseError' }

/** the length prefix of every frame */
export const FRAME_PREFIX_BYTES = 4

export function frame (payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(FRAME_PREFIX_BYTES + payload.length)
  new DataView(out.buffer).setUint32(0, payload.length)
  out.set(payload, FRAME_PREFIX_BYTES)
  return out
}

/**
 * Writes one frame, waiting for the stream to drain when its buffer is full; with `drainMs`,
 * a reader that takes none of it for that long gets UnreadResponseError instead of holding us.
 */
export async function writeFrame (sink: FrameSink, payload: Uint8Array, drainMs?: number): Promise<void> {
  if (sink.send(frame(payload))) return
  if (drainMs === undefined) { await sink.onDrain(); return }
  try {
    await sink.onDrain({ signal: AbortSignal.timeout(drainMs) })
  } catch (err) {
    if ((err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError') throw new UnreadResponseError(`the peer read nothing for ${drainMs} ms`)
    throw err
  }
}

/** Splits a byte stream into frames; throws WireError on an oversized or truncated frame. */
export async function * readFrames (source: AsyncIterable<Chunk>, maxFrameBytes: number): AsyncGenerator<Uint8Array> {
  // Chunks are kept in a list and joined once a whole frame is there: joining on every
  // chunk would copy a large frame once per chunk.
  const pending: Uint8Array[] = []
  let buffered = 0
  let need = -1 // payload length of the frame being read, -1 until its prefix is in
  const take = (n: number): Uint8Array => {
    const out = new Uint8Array(n)
    let filled = 0
    while (filled < n) {
      const head = pending[0] as Uint8Array
      const part = Math.min(head.length, n - filled)
      out.set(head.subarray(0, part), filled)
      filled += part
      if (part === head.length) pending.shift()
      else pending[0] = head.subarray(part)
    }
    buffered -= n
    return out
  }
  for await (const chunk of source) {
    const bytes = chunk instanceof Uint8Array ? chunk : chunk.subarray()
    if (bytes.length === 0) continue
    pending.push(bytes)
    buffered += bytes.length
    for (;;) {
      if (need < 0) {
        if (buffered < 4) break
        const prefix = take(4)
        need = new DataView(prefix.buffer).getUint32(0)
        if (need > maxFrameBytes) throw new WireError(`frame of ${need} bytes exceeds the ${maxFrameBytes}-byte limit`)
      }
      if (buffered < need) break
      const payload = take(need)
      need = -1
      yield payload
    }
  }
  if (need >= 0 || buffered > 0) throw new WireError('stream ended inside a frame')
}
