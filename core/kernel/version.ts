// Node version string: <number>-<network> (SPEC 9 sample form "<number>-testnet").
import type { NetworkParams } from '../chain/params.ts'

// 2: compact block relay and transaction announcements (docs/protocol.md, "Peer-to-peer protocol")
export const PROTOCOL_VERSION = 2

export function nodeVersion (params: NetworkParams): string {
  return `${PROTOCOL_VERSION}-${params.versionSuffix}`
}
