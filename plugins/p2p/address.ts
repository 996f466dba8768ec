// Peer addresses as users write them (`host:port`, `[v6]:port`, or a multiaddr) and as the
// peers list shows them (`host:port`).
import { isIP } from 'node:net'
import { multiaddr } from '@multiformats/multiaddr'
import type { Multiaddr } from '@multiformats/multiaddr'

export class AddressError extends Error { override name = 'AddressError' }

const HOST_PORT_RE = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]/\s]+)):(\d{1,5})$/

/** `host:port`, `[::1]:port` or a TCP multiaddr (optionally ending in /p2p/<id>). */
export function parsePeerAddress (text: string): Multiaddr {
  const s = text.trim()
  let ma: Multiaddr
  if (s.startsWith('/')) {
    try { ma = multiaddr(s) } catch (err) { throw new AddressError(`peer address '${text}': ${(err as Error).message}`) }
  } else {
    const m = HOST_PORT_RE.exec(s)
    if (m === null) throw new AddressError(`peer address '${text}' must be host:port, [ipv6]:port or a multiaddr`)
    const host = (m[1] ?? m[2]) as string
    const family = isIP(host)
    if (m[1] !== undefined && family !== 6) throw new AddressError(`peer address '${text}': [${host}] is not an IPv6 address`)
    const port = Number(m[3])
    if (port < 1 || port > 65535) throw new AddressError(`peer address '${text}': port must be 1-65535`)
    ma = multiaddr(`/${family === 4 ? 'ip4' : family === 6 ? 'ip6' : 'dns'}/${host}/tcp/${port}`)
  }
  const parts = ma.getComponents()
  const tcp = parts[1]
  if (parts.length < 2 || !['ip4', 'ip6', 'dns', 'dns4', 'dns6'].includes(parts[0]?.name ?? '') || tcp?.name !== 'tcp') {
    throw new AddressError(`peer address '${text}' must name a host and a TCP port`)
  }
  const port = Number(tcp.value)
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new AddressError(`peer address '${text}': port must be 1-65535`)
  return ma
}

/** `host:port` of a multiaddr (IPv6 in brackets); the multiaddr text when it has no TCP part. */
export function hostPort (ma: Multiaddr): string {
  const [host, tcp] = ma.getComponents()
  if (host === undefined || tcp?.name !== 'tcp' || host.value === undefined) return ma.toString()
  return host.name === 'ip6' ? `[${host.value}]:${tcp.value ?? ''}` : `${host.value}:${tcp.value ?? ''}`
}

/** The /p2p/<peer id> part of a multiaddr, if it has one. */
export function peerIdOf (ma: Multiaddr): string | undefined {
  return ma.getComponents().find((c) => c.name === 'p2p')?.value
}
