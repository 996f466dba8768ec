// Bytes in and out of this node's p2p connections, as TCP carried them (noise and yamux framing
// included), for the operator's `ledger_p2p_*_bytes_total` metrics. libp2p hands every new
// connection to its `metrics` component before upgrading it; this component counts the TCP
// socket under it (Node's own bytesRead/bytesWritten, no per-message work) and ignores every
// other metric libp2p registers.
//
// libp2p also hands it every stream once its protocol is negotiated (trackProtocolStream):
// the stream's `send` is wrapped so what this node hands it is counted by protocol
// (sent-bytes.ts). Only sends: counting what arrives would need a 'message' listener, and a
// stream with one dispatches (drains) its data before the protocol's handler is attached.
import type { Socket } from 'node:net'
import type { Metrics, MultiaddrConnection, Stream } from '@libp2p/interface'
import type { PeerTraffic } from '../../core/kernel/services.ts'
import type { SentChunk } from './gossip-bytes.ts'

/** Where the bytes handed to negotiated streams are counted (sent-bytes.ts). */
export interface StreamSendCounter {
  /** a stream of `protocol` was negotiated (what agreeing on it cost is counted here) */
  negotiated(protocol: string): void
  sent(protocol: string, chunk: SentChunk): void
}

/** every libp2p metric kind at once, doing nothing: libp2p's own metrics are not exported */
const NOOP_METRIC = {
  update (): void {},
  increment (): void {},
  decrement (): void {},
  reset (): void {},
  observe (): void {},
  timer: () => (): void => {}
}

export class TrafficMeter {
  readonly #live = new Set<Socket>()
  #closedIn = 0
  #closedOut = 0
  readonly #streams: StreamSendCounter | undefined

  constructor (streams?: StreamSendCounter) { this.#streams = streams }

  /** sockets of connections still open are read as they stand; closed ones were added up */
  totals (): PeerTraffic {
    let bytesIn = this.#closedIn
    let bytesOut = this.#closedOut
    for (const s of this.#live) {
      bytesIn += s.bytesRead
      bytesOut += s.bytesWritten
    }
    return { bytesIn, bytesOut }
  }

  track (maConn: MultiaddrConnection): void {
    const socket = (maConn as Partial<{ socket: Socket }>).socket
    // a transport without a Node socket (none today: the node runs TCP only) is not counted
    if (socket === undefined || this.#live.has(socket)) return
    this.#live.add(socket)
    socket.once('close', () => {
      this.#live.delete(socket)
      this.#closedIn += socket.bytesRead
      this.#closedOut += socket.bytesWritten
    })
  }

  /** counts what this node hands the stream from now on, under the protocol it was negotiated for */
  trackStream (stream: Stream): void {
    const counter = this.#streams
    if (counter === undefined) return
    const protocol = stream.protocol
    counter.negotiated(protocol)
    const send = stream.send.bind(stream)
    stream.send = (data) => {
      // counted once the stream took it (a send on a closed stream throws and sends nothing)
      const more = send(data)
      counter.sent(protocol, data)
      return more
    }
  }

  /** the component libp2p's `metrics` option takes */
  libp2pMetrics (): Metrics {
    return {
      trackMultiaddrConnection: (maConn: MultiaddrConnection) => { this.track(maConn) },
      trackProtocolStream: (stream: Stream) => { this.trackStream(stream) },
      registerMetric: () => NOOP_METRIC,
      registerMetricGroup: () => NOOP_METRIC,
      registerCounter: () => NOOP_METRIC,
      registerCounterGroup: () => NOOP_METRIC,
      registerHistogram: () => NOOP_METRIC,
      registerHistogramGroup: () => NOOP_METRIC,
      registerSummary: () => NOOP_METRIC,
      registerSummaryGroup: () => NOOP_METRIC,
      traceFunction: <F>(_name: string, fn: F): F => fn,
      createTrace: () => undefined
    }
  }
}
