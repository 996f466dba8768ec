// Node version string: <number>-<network> (SPEC 9 sample form "<number>-testnet"). The number
// is the protocol version: 2 since the full-precision proof-of-work target (block version 2,
// a new header field and genesis) and compact block relay with transaction announcements
// (docs/p2p.md); peers must speak the same one (docs/protocol.md Versioning).
import type { NetworkParams } from '../chain/params.ts'

export const PROTOCOL_VERSION = 2

export function nodeVersion (params: NetworkParams): string {
  return `${PROTOCOL_VERSION}-${params.versionSuffix}`
}

/** The protocol number a version string starts with, or undefined when it has none. */
export function protocolOfVersion (version: string): number | undefined {
  const match = /^(\d{1,9})-/.exec(version)
  return match === null ? undefined : Number(match[1])
}
