// Node version string: <number>-<network> (SPEC 9 sample form "<number>-testnet").
import type { NetworkParams } from '../chain/params.ts'

export const PROTOCOL_VERSION = 1

export function nodeVersion (params: NetworkParams): string {
  return `${PROTOCOL_VERSION}-${params.versionSuffix}`
}
