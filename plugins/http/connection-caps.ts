// Sockets one client may hold (issue 31 item 4): without a cap, 300 connections trickling a
// body held 300 descriptors for minutes. The server-wide cap is Node's own maxConnections
// (a socket over it is closed before any byte is read); the per-address cap counts sockets on
// 'connection' and closes one over it at once, before it costs a parser or a timer.
import { isIPv6 } from 'node:net'
import type { Server } from 'node:http'
import type { Socket } from 'node:net'
import type { Logger } from 'pino'

/** an IPv6 client is counted per /64 (one host's share of addresses), an IPv4 one per address */
export function addressKey (address: string | undefined): string {
  if (address === undefined) return 'unknown'
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (v4 !== null) return v4[1] as string
  if (!isIPv6(address)) return address
  const [head = '', tail] = address.split('::')
  const left = head === '' ? [] : head.split(':')
  const right = tail === undefined || tail === '' ? [] : tail.split(':')
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
  return `${groups.slice(0, 4).map((g) => g.toLowerCase().replace(/^0+(?=.)/, '')).join(':')}::/64`
}

export interface ConnectionCaps {
  maxConnections: number
  /** undefined: no per-address cap (behind a trusted proxy) */
  maxConnectionsPerAddress?: number
}

/** counts sockets per client address on `server`; returns the live counts (for tests and metrics) */
export function installConnectionCaps (server: Server, caps: ConnectionCaps, logger: Logger): ReadonlyMap<string, number> {
  server.maxConnections = caps.maxConnections
  const open = new Map<string, number>()
  const perAddress = caps.maxConnectionsPerAddress
  if (perAddress === undefined) return open
  let refusedSinceLog = 0
  let lastLog = 0
  server.on('connection', (socket: Socket) => {
    const key = addressKey(socket.remoteAddress)
    const n = (open.get(key) ?? 0) + 1
    if (n > perAddress) {
      socket.destroy()
      // one line a minute at most: the refused are many by nature
      refusedSinceLog++
      const now = Date.now()
      if (now - lastLog > 60_000) {
        logger.warn({ address: key, cap: perAddress, refused: refusedSinceLog }, 'connections over the per-address cap closed')
        lastLog = now
        refusedSinceLog = 0
      }
      return
    }
    open.set(key, n)
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1
      if (left <= 0) open.delete(key)
      else open.set(key, left)
    })
  })
  return open
}
