// Bytes in and out of this node's p2p connections, as TCP carried them (noise and yamux framing
// included), for the operator's `ledger_p2p_*_bytes_total` metrics. libp2p hands every new
// connection to its `metrics` component before upgrading it; this component counts the TCP
// socket under it (Node's own bytesRead/bytesWritten, no per-message work) and ignores every
// other metric libp2p registers.
import type { Socket } from 'node:net'
import type { Metrics, MultiaddrConnection } from '@libp2p/interface'
import type { PeerTraffic } from '../../core/kernel/services.ts'

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

  /** the component libp2p's `metrics` option takes */
  libp2pMetrics (): Metrics {
    return {
      trackMultiaddrConnection: (maConn: MultiaddrConnection) => { this.track(maConn) },
      trackProtocolStream: () => {},
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
