// Parallel ML-DSA-87 verification for block connection and sync. A block's signatures are
// independent of each other, so they are split across worker threads (as Bitcoin Core's
// script-check queue does) while consensus order stays on the main thread: the chain only
// learns which (transaction, key) pairs verified, and verifies anything else inline.
import os from 'node:os'
import { Worker } from 'node:worker_threads'
import { MLDSA_CORES } from './mldsa.ts'
import type { MldsaCoreName } from './mldsa.ts'
import { BLS_CORES } from './bls.ts'
import type { BeaconPairingInput, BlsCoreName } from './bls.ts'

export interface SignatureCheck {
  publicKey: Uint8Array
  message: Uint8Array
  /** bytes, or hex text decoded only when the check is packed for its thread (text that is not hex fails) */
  signature: Uint8Array | string
}

export interface SignatureVerifier {
  /** one result per check, in order */
  verifyAll(checks: SignatureCheck[]): Promise<boolean[]>
  /** beacon BLS pairings (runs of one beacon batch-verified), one result per input, in order */
  verifyBeacons?(inputs: BeaconPairingInput[]): Promise<boolean[]>
}

/**
 * ML-DSA checks packed for a thread: `lens` holds (public key, message, signature) lengths per
 * check, `data` their bytes back to back. Both buffers are transferred, not cloned: a
 * structured clone of 3 × 100 small Buffers copies each one's whole backing store (Node's 8 KB
 * pool slab for the short ones), which cost the main thread more than packing.
 */
export interface PackedChecks { lens: Uint32Array; data: Uint8Array }

export type VerifyJob = { id: number; kind?: 'mldsa'; checks: SignatureCheck[] } | { id: number; kind: 'mldsa-packed'; packed: PackedChecks } | { id: number; kind: 'beacon'; beacons: BeaconPairingInput[] }
export interface VerifyReply { id: number; results: boolean[] }

interface Pending { resolve: (results: boolean[]) => void; reject: (err: Error) => void; worker: Worker }

const workerUrl = new URL('./verify-worker.ts', import.meta.url)
/** young generation of a verify thread (MiB): its garbage is short-lived, a small one suffices */
export const VERIFY_WORKER_YOUNG_GENERATION_MB = 16
/** ML-DSA chunks per thread a block's checks are cut into: small enough to even out the threads */
const MLDSA_CHUNKS_PER_THREAD = 5
/** ...but at least this many checks a chunk (a round trip to a thread costs ~0.1 ms) */
const MLDSA_CHUNK_MIN = 4

export class SignatureVerifyPool implements SignatureVerifier {
  readonly threads: number
  readonly #core: MldsaCoreName
  readonly #bls: BlsCoreName
  readonly #workers: Worker[] = []
  readonly #pending = new Map<number, Pending>()
  /** jobs in flight per worker: a worker keeps the process alive only while it has work */
  readonly #busy = new Map<Worker, number>()
  #nextId = 1
  #closed = false

  /**
   * `core`, `bls`: the kernel's ML-DSA and BLS cores (its `cores.mldsa`, `cores.bls`; BLS
   * default `mcl`); each worker looks them up by these names.
   */
  constructor (opts: { core: MldsaCoreName; bls?: BlsCoreName; threads?: number }) {
    if (!Object.hasOwn(MLDSA_CORES, opts.core)) throw new RangeError(`core must be one of ${Object.keys(MLDSA_CORES).join(', ')}, got ${String(opts.core)}`)
    const bls = opts.bls ?? 'mcl'
    if (!Object.hasOwn(BLS_CORES, bls)) throw new RangeError(`bls must be one of ${Object.keys(BLS_CORES).join(', ')}, got ${String(bls)}`)
    this.#core = opts.core
    this.#bls = bls
    this.threads = Math.max(1, opts.threads ?? os.availableParallelism())
  }

  async verifyAll (checks: SignatureCheck[]): Promise<boolean[]> {
    if (this.#closed) throw new Error('signature verify pool is closed')
    if (checks.length === 0) return []
    return await this.#verifyChunked(checks)
  }

  /**
   * Beacon pairings on the same threads as the ML-DSA checks. Inputs are split per beacon so
   * each thread gets whole runs to batch; a block's one or two rounds go to one thread while
   * its transactions' signatures keep the others busy.
   */
  async verifyBeacons (inputs: BeaconPairingInput[]): Promise<boolean[]> {
    if (this.#closed) throw new Error('signature verify pool is closed')
    if (inputs.length === 0) return []
    // one beacon thread (the last: the ML-DSA split starts at thread 0): the WASM BLS core
    // costs ~25 MiB in each thread that loads it, and one thread batch-verifies over a
    // thousand rounds a second, more than any sync needs (a devnet block quotes < 1 new round)
    return await this.#post(this.#beaconThread, { kind: 'beacon', beacons: inputs })
  }

  get #beaconThread (): number { return this.threads - 1 }

  /**
   * Starts every thread now instead of on first use, so the beacon thread instantiates its BLS
   * core (a few hundred milliseconds of WASM set-up) while the node is still connecting, not
   * while the first block waits. Idle threads do not keep the process alive.
   */
  warm (): void {
    if (this.#closed) return
    for (let i = 0; i < this.threads; i++) if (this.#workers[i] === undefined) this.#spawn(i)
  }

  async close (): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    const err = new Error('signature verify pool closed')
    for (const p of this.#pending.values()) p.reject(err)
    this.#pending.clear()
    await Promise.all(this.#workers.map(async (w) => await w.terminate()))
  }

  /**
   * The ML-DSA split. Each check has a home thread chosen by its public key, so a sender's key
   * is usually verified where its KeyObject is already cached (building one costs about a fifth
   * of a verify); each thread takes its home checks in small chunks and, when it has none left,
   * takes chunks from the end of the longest other queue. So a thread that is also pairing a
   * beacon round, or sharing its core with the main thread, ends up with fewer checks and all
   * threads end together (a fixed half each left one thread's tail running alone).
   */
  async #verifyChunked (checks: SignatureCheck[]): Promise<boolean[]> {
    const workers = Math.min(this.threads, checks.length)
    const size = Math.max(MLDSA_CHUNK_MIN, Math.ceil(checks.length / (workers * MLDSA_CHUNKS_PER_THREAD)))
    const queues: number[][] = Array.from({ length: workers }, () => [])
    checks.forEach((c, i) => { queues[homeThread(c.publicKey, workers)]!.push(i) })
    const take = (w: number): number[] => {
      const own = queues[w]!
      if (own.length > 0) return own.splice(0, size)
      let victim: number[] | undefined
      for (const q of queues) if (q.length > 0 && (victim === undefined || q.length > victim.length)) victim = q
      return victim === undefined ? [] : victim.splice(Math.max(0, victim.length - size))
    }
    const results: boolean[] = new Array<boolean>(checks.length).fill(false)
    const drain = async (w: number): Promise<void> => {
      for (let chunk = take(w); chunk.length > 0; chunk = take(w)) {
        const packed = packChecks(checks, chunk)
        const out = await this.#post(w, { kind: 'mldsa-packed', packed }, [packed.lens.buffer as ArrayBuffer, packed.data.buffer as ArrayBuffer])
        chunk.forEach((i, j) => { results[i] = out[j] === true })
      }
    }
    await Promise.all(Array.from({ length: workers }, async (_, w) => await drain(w)))
    return results
  }

  #post (index: number, job: { kind: 'mldsa-packed'; packed: PackedChecks } | { kind: 'beacon'; beacons: BeaconPairingInput[] }, transfer: ArrayBuffer[] = []): Promise<boolean[]> {
    const worker = this.#workers[index] ?? this.#spawn(index)
    const id = this.#nextId++
    return new Promise<boolean[]>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, worker })
      this.#setBusy(worker, +1)
      worker.postMessage({ id, ...job } satisfies VerifyJob, transfer)
    })
  }

  #setBusy (worker: Worker, delta: number): void {
    const n = (this.#busy.get(worker) ?? 0) + delta
    this.#busy.set(worker, n)
    if (n > 0) worker.ref()
    else worker.unref()
  }

  #spawn (index: number): Worker {
    // A bounded young generation: V8 would let each isolate's grow to 2 × 64 MiB semi-spaces
    // (Node 24, no pointer compression) and keep it; the BLS pairings' garbage took a worker
    // there, ~100 MiB of the syncing node's RSS after 1,000 paced blocks (issue 15).
    const worker = new Worker(workerUrl, { workerData: { core: this.#core, bls: this.#bls, blsThread: index === this.#beaconThread }, resourceLimits: { maxYoungGenerationSizeMb: VERIFY_WORKER_YOUNG_GENERATION_MB } })
    worker.unref()
    worker.on('message', (reply: VerifyReply) => {
      const p = this.#pending.get(reply.id)
      if (p === undefined) return
      this.#pending.delete(reply.id)
      this.#setBusy(worker, -1)
      p.resolve(reply.results)
    })
    const fail = (err: Error): void => {
      // a dead worker fails its jobs (the chain then verifies inline) and is replaced on next use
      for (const [id, p] of this.#pending) {
        if (p.worker !== worker) continue
        this.#pending.delete(id)
        p.reject(err)
      }
      this.#busy.delete(worker)
      if (this.#workers[index] === worker) delete this.#workers[index]
    }
    worker.on('error', fail)
    worker.on('exit', (code) => { if (!this.#closed) fail(new Error(`signature verify worker exited (code ${code})`)) })
    this.#workers[index] = worker
    return worker
  }
}

/** a check's preferred thread, from its public key (the first bytes of an ML-DSA key are uniform) */
function homeThread (publicKey: Uint8Array, threads: number): number {
  return (((publicKey[0] ?? 0) << 8) | (publicKey[1] ?? 0)) % threads
}

/** the checks `indices` names in one pair of fresh buffers, for transfer to a thread */
export function packChecks (checks: readonly SignatureCheck[], indices: readonly number[]): PackedChecks {
  const lens = new Uint32Array(3 * indices.length)
  let total = 0
  indices.forEach((i, k) => {
    const c = checks[i] as SignatureCheck
    const sigLen = typeof c.signature === 'string' ? c.signature.length >>> 1 : c.signature.length
    lens[3 * k] = c.publicKey.length
    lens[3 * k + 1] = c.message.length
    lens[3 * k + 2] = sigLen
    total += c.publicKey.length + c.message.length + sigLen
  })
  const data = Buffer.alloc(total)
  let pos = 0
  indices.forEach((i, k) => {
    const c = checks[i] as SignatureCheck
    data.set(c.publicKey, pos); pos += c.publicKey.length
    data.set(c.message, pos); pos += c.message.length
    const sigLen = lens[3 * k + 2] as number
    // hex decoded in place; Buffer stops at the first pair that is not hex, leaving zeros (fails)
    if (typeof c.signature === 'string') data.write(c.signature, pos, sigLen, 'hex')
    else data.set(c.signature, pos)
    pos += sigLen
  })
  return { lens, data }
}

/** the checks a PackedChecks holds, as views of its buffer */
export function unpackChecks (packed: PackedChecks): SignatureCheck[] {
  const { lens, data } = packed
  const out: SignatureCheck[] = []
  let pos = 0
  for (let j = 0; j < lens.length; j += 3) {
    const view = (n: number): Uint8Array => { const v = data.subarray(pos, pos + n); pos += n; return v }
    out.push({ publicKey: view(lens[j] as number), message: view(lens[j + 1] as number), signature: view(lens[j + 2] as number) })
  }
  return out
}
