// Splits one gossipsub RPC, as this node hands it to a peer's /meshsub stream, into what each
// part of it cost on the stream: every published or forwarded message by its topic, and the
// rest (subscriptions, IHAVE/IWANT/GRAFT/PRUNE/IDONTWANT) as control. Gossipsub multiplexes
// every topic and its control traffic on that one stream per peer, so the stream's total alone
// cannot say what relaying blocks or transactions cost.
//
// Why here, on the bytes, and not inside gossipsub: gossipsub's per-peer send (`sendRpc`,
// `sendRpcInBatch`, both private) encodes the RPC and hands the length-prefixed bytes to the
// stream's `send` once per RPC (its OutboundStream.push/pushPrefixed); it reports no byte
// count per part, so counting there would mean patching private methods and encoding every
// RPC twice. Reading the frame's protobuf structure at the stream (RPC fields 1-3, and in
// each message only its tag and length headers up to the topic) costs a few dozen byte reads
// per RPC, never copies the payload, and counts exactly the bytes sent.
//
// The protobuf (gossipsub's rpc.proto): RPC { repeated SubOpts subscriptions = 1; repeated
// Message messages = 2; optional ControlMessage control = 3 }, Message { bytes from = 1;
// bytes data = 2; bytes seqno = 3; string topic = 4; bytes signature = 5; bytes key = 6 }.

/** The bytes handed to a stream's `send`: a Uint8Array, or a Uint8ArrayList (a list of chunks: a
 *  length prefix and the encoded RPC) read through its `get` and `subarray`. */
export type SentChunk = Uint8Array | { readonly byteLength: number; get(index: number): number; subarray(start?: number, end?: number): Uint8Array }

/** One part of an RPC frame: a message (its topic, and where its payload lies in the chunk) or control. */
export type RpcPart =
  | { kind: 'message'; topic: string; bytes: number; dataStart: number; dataEnd: number }
  | { kind: 'control'; bytes: number }

const WIRE_VARINT = 0
const WIRE_BYTES = 2
const FIELD_MESSAGES = 2
const MESSAGE_DATA = 2
const MESSAGE_TOPIC = 4
/** a topic longer than this is no topic of ours: it is counted, not named */
const MAX_TOPIC_BYTES = 256

class Reader {
  at: number
  readonly #chunk: SentChunk
  constructor (chunk: SentChunk, at = 0) {
    this.#chunk = chunk
    this.at = at
  }

  byte (): number {
    const i = this.at++
    if (i >= this.#chunk.byteLength) throw new RangeError('past the end')
    return this.#chunk instanceof Uint8Array ? this.#chunk[i] as number : this.#chunk.get(i)
  }

  varint (): number {
    let value = 0
    for (let shift = 0; shift < 49; shift += 7) {
      const b = this.byte()
      value += (b & 0x7f) * 2 ** shift
      if ((b & 0x80) === 0) return value
    }
    throw new RangeError('varint too long')
  }
}

/**
 * The parts of one length-prefixed RPC frame, their bytes adding up to the chunk's (the length
 * prefix goes to the first part). null when the chunk is not exactly one well-formed frame
 * (the caller counts it whole as control).
 */
export function splitRpcFrame (chunk: SentChunk): RpcPart[] | null {
  try {
    const r = new Reader(chunk)
    const length = r.varint()
    const prefix = r.at
    if (prefix + length !== chunk.byteLength) return null
    const parts: RpcPart[] = []
    while (r.at < chunk.byteLength) {
      const start = r.at
      const tag = r.varint()
      if ((tag & 7) !== WIRE_BYTES) return null
      const size = r.varint()
      const body = r.at
      const end = body + size
      if (end > chunk.byteLength) return null
      if (tag >>> 3 === FIELD_MESSAGES) {
        const m = readMessage(chunk, body, end)
        if (m === null) return null
        parts.push({ kind: 'message', topic: m.topic, bytes: end - start, dataStart: m.dataStart, dataEnd: m.dataEnd })
      } else {
        parts.push({ kind: 'control', bytes: end - start })
      }
      r.at = end
    }
    if (parts.length === 0) return null
    ;(parts[0] as RpcPart).bytes += prefix
    return parts
  } catch (err) {
    if (err instanceof RangeError) return null
    throw err
  }
}

function readMessage (chunk: SentChunk, from: number, to: number): { topic: string; dataStart: number; dataEnd: number } | null {
  const r = new Reader(chunk, from)
  let topic: string | null = null
  let dataStart = from
  let dataEnd = from
  while (r.at < to) {
    const tag = r.varint()
    const wire = tag & 7
    if (wire === WIRE_VARINT) { r.varint(); continue }
    if (wire !== WIRE_BYTES) return null
    const size = r.varint()
    const start = r.at
    if (start + size > to) return null
    const field = tag >>> 3
    if (field === MESSAGE_DATA) { dataStart = start; dataEnd = start + size }
    if (field === MESSAGE_TOPIC) topic = size > MAX_TOPIC_BYTES ? '' : Buffer.from(chunk.subarray(start, start + size)).toString('utf8')
    r.at = start + size
  }
  return topic === null ? null : { topic, dataStart, dataEnd }
}
