// A drand-style beacon as an upstream source. Each call fetches the latest round, verifies it
// (drand-verify.ts), and expands its 32 bytes of randomness into the bytes asked for with
// SHAKE256, continuing the same stream while the round does not change, so no byte is ever
// produced twice. Beacon output is PUBLIC: anyone can recompute this stream, which is why the
// aggregator XOR-mixes it with a private source rather than serving it alone on a testnet.
import { DEFAULT_BLS_CORE } from '../../../core/crypto/bls.ts'
import type { BlsCore } from '../../../core/crypto/bls.ts'
import { shake256 } from '@noble/hashes/sha3.js'
import { DrandHttp } from './drand-http.ts'
import { verifyBeacon, BeaconVerificationError } from './drand-verify.ts'
import type { DrandBeacon } from './drand-verify.ts'
import type { DrandChainConfig } from './drand-chains.ts'
import type { SourceResult, UpstreamSource } from './types.ts'
import type { BeaconEvidence } from '../../../core/chain/types.ts'

export interface DrandSourceOptions {
  /** registered source id this beacon stands for */
  id: string
  chain: DrandChainConfig
  /** deadline of one generate() call, all relays included */
  timeoutMs: number
  /** refuse a beacon older than this many seconds by the chain's schedule; null accepts any age */
  maxAgeSeconds: number | null
  /** clock in ms, for tests */
  now?: () => number
  /** verifies each round's BLS signature: the kernel's core (default: the JS core) */
  bls?: BlsCore
}

const STREAM_DOMAIN = new TextEncoder().encode('ledger-drand-stream-v1')

type Xof = ReturnType<typeof shake256.create>

function parseBeacon (body: unknown): DrandBeacon {
  const b = body as Partial<Record<keyof DrandBeacon, unknown>> | null
  if (b === null || typeof b !== 'object' || typeof b.round !== 'number' || typeof b.signature !== 'string' || typeof b.randomness !== 'string') {
    throw new BeaconVerificationError('relay answered something that is not a beacon')
  }
  const beacon: DrandBeacon = { round: b.round, randomness: b.randomness, signature: b.signature }
  if (typeof b.previous_signature === 'string') beacon.previous_signature = b.previous_signature
  return beacon
}

/** A verified beacon as a block's envelope quotes it. */
export function evidenceOf (source: string, beacon: DrandBeacon): BeaconEvidence {
  const e: BeaconEvidence = { source, round: beacon.round, signature: beacon.signature, randomness: beacon.randomness }
  if (beacon.previous_signature !== undefined) e.previous_signature = beacon.previous_signature
  return e
}

/** The stream's seed binds it to this chain and round, so two chains never share a stream. */
export function streamSeed (chainHash: string, round: number, randomness: Uint8Array): Uint8Array {
  const hash = Buffer.from(chainHash, 'hex')
  const seed = new Uint8Array(STREAM_DOMAIN.length + hash.length + 8 + randomness.length)
  let at = 0
  seed.set(STREAM_DOMAIN, at); at += STREAM_DOMAIN.length
  seed.set(hash, at); at += hash.length
  new DataView(seed.buffer).setBigUint64(at, BigInt(round)); at += 8
  seed.set(randomness, at)
  return seed
}

export class DrandBeaconSource implements UpstreamSource {
  readonly id: string
  readonly device: string
  readonly #chain: DrandChainConfig
  readonly #http: DrandHttp
  readonly #maxAgeSeconds: number | null
  readonly #now: () => number
  readonly #bls: BlsCore
  #infoChecked = false
  #lastRound = 0
  #stream: { round: number; xof: Xof } | null = null

  constructor (o: DrandSourceOptions) {
    this.id = o.id
    this.#chain = o.chain
    this.device = `drand ${o.chain.scheme} chain ${o.chain.chainHash.slice(0, 16)}`
    this.#http = new DrandHttp({ urls: o.chain.urls, chainHash: o.chain.chainHash, timeoutMs: o.timeoutMs })
    this.#maxAgeSeconds = o.maxAgeSeconds
    this.#now = o.now ?? Date.now
    this.#bls = o.bls ?? DEFAULT_BLS_CORE
  }

  get lastRound (): number { return this.#lastRound }

  async generate (numBytes: number, signal?: AbortSignal): Promise<SourceResult> {
    const { beacon, randomness } = await this.#latest(signal)
    if (this.#stream === null || this.#stream.round !== beacon.round) {
      this.#stream = { round: beacon.round, xof: shake256.create({}).update(streamSeed(this.#chain.chainHash, beacon.round, randomness)) }
    }
    return { bytes: this.#stream.xof.xof(numBytes), round: beacon.round, source: this.id, evidence: evidenceOf(this.id, beacon) }
  }

  async latestEvidence (signal?: AbortSignal): Promise<BeaconEvidence> {
    return evidenceOf(this.id, (await this.#latest(signal)).beacon)
  }

  /** The newest round, verified, fresh and never older than one already used. */
  async #latest (signal?: AbortSignal): Promise<{ beacon: DrandBeacon; randomness: Uint8Array }> {
    if (!this.#infoChecked) await this.#checkInfo(signal)
    const beacon = parseBeacon(await this.#http.beacon('latest', signal))
    await this.#bls.ready()
    const randomness = verifyBeacon(this.#chain, beacon, this.#bls)
    if (beacon.round < this.#lastRound) throw new BeaconVerificationError(`beacon round ${beacon.round} is older than round ${this.#lastRound} already used`)
    this.#checkFresh(beacon.round)
    this.#lastRound = beacon.round
    return { beacon, randomness }
  }

  /** A relay that serves another chain under this hash is refused before any beacon is read. */
  async #checkInfo (signal?: AbortSignal): Promise<void> {
    const info = await this.#http.info(signal) as Record<string, unknown> | null
    if (info === null || typeof info !== 'object') throw new BeaconVerificationError('relay chain info is not an object')
    const expect: Array<[string, unknown, unknown]> = [
      ['public_key', info.public_key, this.#chain.publicKey],
      ['schemeID', info.schemeID, this.#chain.scheme],
      ['hash', info.hash, this.#chain.chainHash],
      ['period', info.period, this.#chain.period],
      ['genesis_time', info.genesis_time, this.#chain.genesisTime]
    ]
    for (const [field, got, want] of expect) {
      if (got !== undefined && got !== want) throw new BeaconVerificationError(`relay chain info ${field} ${String(got)} differs from the configured ${String(want)}`)
    }
    this.#infoChecked = true
  }

  #checkFresh (round: number): void {
    if (this.#maxAgeSeconds === null) return
    const roundTime = this.#chain.genesisTime + (round - 1) * this.#chain.period
    const age = this.#now() / 1000 - roundTime
    if (age > this.#maxAgeSeconds) throw new BeaconVerificationError(`beacon round ${round} is ${Math.round(age)} s old (limit ${this.#maxAgeSeconds} s): the relay is stale`)
  }
}
