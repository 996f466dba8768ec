// The devnet beacon as an upstream source: it signs the current round itself (the devnet
// beacon key is public, config/entropy-sources.ts), verifies it like any drand round, and
// expands its randomness as the drand source does. No network: devnet mines offline with
// blocks that carry real, checkable beacon evidence.
import { shake256 } from '@noble/hashes/sha3.js'
import { DEVNET_BEACON } from '../../../config/entropy-sources.ts'
import { devnetRoundAt } from '../../../core/entropy/devnet-beacon.ts'
import { verifyBeacon } from '../../../core/entropy/beacon-verify.ts'
import { DEFAULT_BLS_CORE } from '../../../core/crypto/bls.ts'
import type { BlsCore } from '../../../core/crypto/bls.ts'
import type { BeaconEvidence } from '../../../core/chain/types.ts'
import { evidenceOf, streamSeed } from './drand-source.ts'
import type { SourceResult, UpstreamSource } from './types.ts'

export const DEVNET_BEACON_ID = 'beacon-devnet'

type Xof = ReturnType<typeof shake256.create>

export class DevnetBeaconSource implements UpstreamSource {
  readonly id = DEVNET_BEACON_ID
  readonly device = `devnet beacon (${DEVNET_BEACON.pin.scheme}, signed locally)`
  readonly #now: () => number
  readonly #bls: BlsCore
  #stream: { round: number; xof: Xof } | null = null
  #verifiedRound = 0

  /** `bls`: verifies each round it serves (default: the JS core) */
  constructor (o: { now?: () => number; bls?: BlsCore } = {}) {
    this.#now = o.now ?? Date.now
    this.#bls = o.bls ?? DEFAULT_BLS_CORE
  }

  async generate (numBytes: number): Promise<SourceResult> {
    await this.#bls.ready()
    const evidence = this.#current()
    if (this.#stream === null || this.#stream.round !== evidence.round) {
      const seed = streamSeed(DEVNET_BEACON.pin.chainHash, evidence.round, Buffer.from(evidence.randomness, 'hex'))
      this.#stream = { round: evidence.round, xof: shake256.create({}).update(seed) }
    }
    return { bytes: this.#stream.xof.xof(numBytes), round: evidence.round, source: this.id, evidence }
  }

  async latestEvidence (): Promise<BeaconEvidence> {
    await this.#bls.ready()
    return this.#current()
  }

  #current (): BeaconEvidence {
    const beacon = devnetRoundAt(this.#now() / 1000)
    // what it serves passes the verifier every validator runs (once per round: a pairing is costly)
    if (beacon.round !== this.#verifiedRound) {
      verifyBeacon(DEVNET_BEACON.pin, beacon, this.#bls)
      this.#verifiedRound = beacon.round
    }
    return evidenceOf(this.id, beacon)
  }
}
