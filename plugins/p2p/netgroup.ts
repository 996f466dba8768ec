// Addresses grouped the way Bitcoin Core groups them for connection slots: an attacker finds
// many addresses in one network cheaply, many networks dearly. IPv4 by /16, IPv6 by /32.
// The loopback addresses 127.0.0.1 and ::1 are shared by every node of a local testbed (and
// by tests), so they are exempt from per-address limits and address bans; every other
// loopback address (127.0.0.2 …) counts as its own host and its own group, which lets tests
// stand for distinct attackers on one machine.
import { isIPv4, isIPv6 } from 'node:net'
import type { Multiaddr } from '@multiformats/multiaddr'

const SHARED = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1'])

/** true for the loopback addresses every local node shares */
export function isSharedAddress (ip: string): boolean { return SHARED.has(ip) }

/** The IP of a TCP multiaddr, or undefined (a relayed or other transport address). */
export function ipOf (ma: Multiaddr): string | undefined {
  const first = ma.getComponents()[0]
  return first !== undefined && (first.name === 'ip4' || first.name === 'ip6') ? first.value : undefined
}

/** The network group an address belongs to: its /16 (IPv4), its /32 (IPv6), a loopback address alone. */
export function netgroupOf (ip: string): string {
  const v4 = ip.startsWith('::ffff:') && isIPv4(ip.slice(7)) ? ip.slice(7) : ip
  if (isIPv4(v4)) {
    if (v4.startsWith('127.')) return v4
    const [a, b] = v4.split('.')
    return `${a ?? ''}.${b ?? ''}.0.0/16`
  }
  if (isIPv6(ip)) {
    if (ip === '::1') return ip
    const groups = expandIPv6(ip)
    return `${groups[0]}:${groups[1]}::/32`
  }
  return ip
}

function expandIPv6 (ip: string): string[] {
  const [head = '', tail] = ip.split('::')
  const h = head === '' ? [] : head.split(':')
  const t = tail === undefined || tail === '' ? [] : tail.split(':')
  const zeros = Array<string>(Math.max(0, 8 - h.length - t.length)).fill('0')
  return [...h, ...(tail === undefined ? [] : zeros), ...t].map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''))
}
