// The upstream source interface of the aggregator. SPEC 4.6 names it generate_qrng(num_bits);
// here it is generate(numBytes): every consumer counts bytes, and a bit count that is not a
// multiple of 8 would have no use.
import type { BeaconEvidence } from '../../../core/chain/types.ts'

export interface SourceResult {
  /** exactly the number of bytes asked for */
  bytes: Uint8Array
  /** the beacon round the bytes derive from (beacons only) */
  round?: number
  /** registered source id (config/entropy-sources.ts) */
  source: string
  /** beacons only: the verified round the bytes derive from, as a block quotes it */
  evidence?: BeaconEvidence
}

export interface UpstreamSource {
  /** registered source id */
  readonly id: string
  /** human description of what produces the bytes (shown in /api/health and attestations) */
  readonly device: string
  /** throws when the source cannot answer; never returns fewer bytes than asked */
  generate(numBytes: number, signal?: AbortSignal): Promise<SourceResult>
  /** beacons only: the newest verified round, fetched now (fresh evidence for a block) */
  latestEvidence?(signal?: AbortSignal): Promise<BeaconEvidence>
  /** releases files or sockets; optional */
  close?(): Promise<void> | void
}
