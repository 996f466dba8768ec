// Test doubles for the entropy tests: controllable upstream sources with known output, and a
// local relay imitating drand's HTTP API that serves the real beacons of
// test/fixtures/drand (copied from the shared fixtures; optionally tampered).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFileSync } from 'node:fs'
import { shake256 } from '@noble/hashes/sha3.js'
import { pino } from 'pino'
import type { UpstreamSource, SourceResult } from '../../../plugins/entropy-aggregator/sources/types.ts'
import { EntropyAggregator } from '../../../plugins/entropy-aggregator/aggregator.ts'
import type { AggregatorOptions } from '../../../plugins/entropy-aggregator/aggregator.ts'
import type { DrandBeacon } from '../../../plugins/entropy-aggregator/sources/drand-verify.ts'
import type { DrandChainConfig } from '../../../plugins/entropy-aggregator/sources/drand-chains.ts'
import type { DrandScheme } from '../../../plugins/entropy-aggregator/sources/drand-schemes.ts'

export const silent = pino({ level: 'silent' })

export const BOUNDS = { monobit: [0.40, 0.60] as const, fano: [0.5, 1.5] as const }

/** A deterministic, random-looking stream per name: what a fake source will produce, in order. */
export function knownStream (name: string): { next(n: number): Uint8Array } {
  const xof = shake256.create({}).update(new TextEncoder().encode(`test-stream:${name}`))
  return { next: (n) => xof.xof(n) }
}

/** An upstream source whose answers the test controls. */
export class FakeSource implements UpstreamSource {
  readonly id: string
  readonly device: string
  up = true
  /** never answers (until aborted) */
  hang = false
  /** answers with n zero bytes: a stuck device */
  zeros = false
  round: number | undefined
  calls = 0
  readonly #stream: { next(n: number): Uint8Array }

  constructor (id: string, device = `fake ${id}`) {
    this.id = id
    this.device = device
    this.#stream = knownStream(id)
  }

  async generate (numBytes: number, signal?: AbortSignal): Promise<SourceResult> {
    this.calls++
    if (this.hang) {
      await new Promise<void>((_resolve, reject) => signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true }))
    }
    if (!this.up) throw new Error(`${this.id} is down`)
    const bytes = this.zeros ? new Uint8Array(numBytes) : this.#stream.next(numBytes)
    return this.round === undefined ? { bytes, source: this.id } : { bytes, source: this.id, round: this.round }
  }
}

export function makeAggregator (sources: UpstreamSource[], o: Partial<AggregatorOptions> = {}): EntropyAggregator {
  return new EntropyAggregator({
    sources,
    minQuorum: 1,
    capacity: 65536,
    refillThreshold: 0.5,
    batchBytes: 32768,
    timeoutMs: 1000,
    probeIntervalMs: 60_000,
    backoff: { baseMs: 0, maxMs: 0 },
    healthBounds: BOUNDS,
    logger: silent,
    ...o
  })
}

/** Polls until cond() holds; fails after maxMs (every wait in the tests is bounded). */
export async function until (cond: () => boolean, maxMs = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + maxMs
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

export interface DrandFixture {
  chain: { public_key: string; period: number; genesis_time: number; hash: string; groupHash: string; schemeID: DrandScheme; metadata: { beaconID: string } }
  beacons: DrandBeacon[]
}

export function loadFixture (name: 'default' | 'fastnet' | 'quicknet'): DrandFixture {
  const raw = JSON.parse(readFileSync(new URL(`../../fixtures/drand/${name}.json`, import.meta.url), 'utf8')) as DrandFixture
  return { chain: raw.chain, beacons: raw.beacons.map((b) => ({ round: b.round, randomness: b.randomness, signature: b.signature, ...(b.previous_signature === undefined ? {} : { previous_signature: b.previous_signature }) })) }
}

export function chainConfig (f: DrandFixture, urls: string[]): DrandChainConfig {
  return { urls, chainHash: f.chain.hash, publicKey: f.chain.public_key, scheme: f.chain.schemeID, period: f.chain.period, genesisTime: f.chain.genesis_time }
}

/** Unix ms at which a beacon round was published, by its chain's schedule. */
export function roundTimeMs (f: DrandFixture, round: number): number {
  return (f.chain.genesis_time + (round - 1) * f.chain.period) * 1000
}

export interface Relay {
  url: string
  /** the beacon /public/latest serves */
  latest: DrandBeacon
  info: Record<string, unknown>
  requests: string[]
  close(): Promise<void>
}

/** A local stand-in for a drand relay: /{hash}/info, /{hash}/public/{latest|round}. */
export async function startRelay (f: DrandFixture, latest: DrandBeacon = f.beacons[f.beacons.length - 1] as DrandBeacon): Promise<Relay> {
  const relay = { latest, info: { ...f.chain } as Record<string, unknown>, requests: [] as string[] }
  const server = http.createServer((req, res) => {
    const path = req.url ?? ''
    relay.requests.push(path)
    const send = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    const prefix = `/${f.chain.hash}/`
    if (!path.startsWith(prefix)) return send(404, { error: 'unknown chain' })
    const rest = path.slice(prefix.length)
    if (rest === 'info') return send(200, relay.info)
    if (rest === 'public/latest') return send(200, relay.latest)
    const m = /^public\/(\d+)$/.exec(rest)
    const beacon = m === null ? undefined : f.beacons.find((b) => b.round === Number(m[1]))
    return beacon === undefined ? send(404, { error: 'not found' }) : send(200, beacon)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return Object.assign(relay, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) })
  })
}
