// Parallel ML-DSA-87 verification for block connection and sync. A block's signatures are
// independent of each other, so they are split across worker threads (as Bitcoin Core's
// script-check queue does) while consensus order stays on the main thread: the chain only
// learns which (transaction, key) pairs verified, and verifies anything else inline. The same
// threads hash a block's merkle leaves and pair the beacon rounds it quotes.
import os from 'node:os'
import { Worker } from 'node:worker_threads'
import { MLDSA_CORES } from './mldsa.ts'
import type { MldsaCore, MldsaCoreName } from './mldsa.ts'
import { BLS_CORES } from './bls.ts'
import { SharedJob } from './shared-job.ts'
import { SHA3_CORES } from './sha3.ts'
import type { Sha3Core, Sha3CoreName } from './sha3.ts'
import type { JobField, JobWork } from './shared-job.ts'
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
  /** SHA3-512 of each input, in order (a block's merkle leaves) */
  digestAll?(inputs: readonly Uint8Array[]): Promise<Uint8Array[]>
  /**
   * The calling thread does, synchronously, the items of jobs in flight that no thread has
   * claimed yet (signature checks, leaves to hash; Bitcoin Core's check queue has its master
   * thread join in the same way), so a caller with nothing else to do before the verdicts
   * lends its core instead of idling. Returns how many items it did.
   */
  assist?(): number
}

/**
 * A block's ML-DSA checks (or merkle leaves to hash) in one SharedArrayBuffer that every thread
 * pulls from (shared-job.ts). The main thread posts it before packing a single item and packs
 * them in order while the threads already work; a thread takes the next item with one atomic
 * add, so the threads end together without the main thread handing out work (it may be busy
 * applying the block).
 */
export type SharedJobKind = 'mldsa' | 'sha3-512'
export type VerifyJob = { id: number; kind: SharedJobKind; shared: SharedArrayBuffer } | { id: number; kind: 'beacon'; beacons: BeaconPairingInput[] }
export interface VerifyReply { id: number; results: boolean[] }

interface Pending { resolve: (results: boolean[]) => void; reject: (err: Error) => void; worker: Worker }

const workerUrl = new URL('./verify-worker.ts', import.meta.url)
/** young generation of a verify thread (MiB): its garbage is short-lived, a small one suffices */
export const VERIFY_WORKER_YOUNG_GENERATION_MB = 16
/** beacon rounds in flight up to which they are a block's own (one or two a block); more are a download's batch */
const BLOCK_PAIRINGS = 4
/** finished jobs' buffers kept for reuse (a block's signatures and its leaves: two at a time) */
const SPARE_BUFFERS = 2
/** ...of at most this size each (a full block's checks are ~1 MB) */
const SPARE_BUFFER_MAX_BYTES = 8 << 20

export class SignatureVerifyPool implements SignatureVerifier {
  readonly threads: number
  readonly #core: MldsaCoreName
  readonly #bls: BlsCoreName
  readonly #sha3: Sha3CoreName
  readonly #workers: Worker[] = []
  readonly #pending = new Map<number, Pending>()
  /** buffers of finished jobs, for the next ones (every thread answered: none touches them) */
  readonly #spare: SharedArrayBuffer[] = []
  /** shared jobs whose items are all packed and not all answered: assist() pulls from them */
  readonly #inFlight = new Map<SharedJob, SharedJobKind>()
  /** jobs in flight per worker: a worker keeps the process alive only while it has work */
  readonly #busy = new Map<Worker, number>()
  #nextId = 1
  #closed = false
  /** beacon rounds posted to the beacon thread and not answered */
  #pairingsInFlight = 0

  /**
   * `core`, `bls`, `sha3`: the kernel's ML-DSA, BLS and SHA3 cores (its `cores.mldsa`,
   * `cores.bls`, `cores.sha3`; defaults `mcl` and `wasm`); each worker looks them up by name.
   */
  constructor (opts: { core: MldsaCoreName; bls?: BlsCoreName; sha3?: Sha3CoreName; threads?: number }) {
    if (!Object.hasOwn(MLDSA_CORES, opts.core)) throw new RangeError(`core must be one of ${Object.keys(MLDSA_CORES).join(', ')}, got ${String(opts.core)}`)
    const bls = opts.bls ?? 'mcl'
    if (!Object.hasOwn(BLS_CORES, bls)) throw new RangeError(`bls must be one of ${Object.keys(BLS_CORES).join(', ')}, got ${String(bls)}`)
    const sha3 = opts.sha3 ?? 'wasm'
    if (!Object.hasOwn(SHA3_CORES, sha3)) throw new RangeError(`sha3 must be one of ${Object.keys(SHA3_CORES).join(', ')}, got ${String(sha3)}`)
    this.#core = opts.core
    this.#bls = bls
    this.#sha3 = sha3
    this.threads = Math.max(1, opts.threads ?? os.availableParallelism())
  }

  /** jobs posted to the threads and not yet answered (the operator's queue-length metric) */
  queueLength (): number { return this.#pending.size }

  async verifyAll (checks: SignatureCheck[]): Promise<boolean[]> {
    if (this.#closed) throw new Error('signature verify pool is closed')
    if (checks.length === 0) return []
    const job = await this.#runShared('mldsa', checks.map((c) => [c.publicKey, c.message, c.signature]), 1)
    const results = checks.map((_, i) => job.result(i)[0] === 1)
    this.#release(job)
    return results
  }

  /**
   * SHA3-512 of each input on the threads (a block's merkle leaves, while the main thread
   * applies the block). Whatever is left when the caller assists, it hashes itself.
   */
  async digestAll (inputs: readonly Uint8Array[]): Promise<Uint8Array[]> {
    if (this.#closed) throw new Error('signature verify pool is closed')
    if (inputs.length === 0) return []
    const job = await this.#runShared('sha3-512', inputs.map((b) => [b]), 64)
    const digests = inputs.map((_, i) => Uint8Array.from(job.result(i)))
    this.#release(job)
    return digests
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
    this.#pairingsInFlight += inputs.length
    try {
      return await this.#post(this.#beaconThread, { kind: 'beacon', beacons: inputs })
    } finally {
      this.#pairingsInFlight -= inputs.length
    }
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

  /**
   * Starts every thread (warm) and resolves once the beacon thread has its BLS core, for a
   * caller that times what follows (the bench's connect rate) without the threads' start.
   */
  async started (): Promise<void> {
    this.warm()
    if (this.#closed) return
    await this.#post(this.#beaconThread, { kind: 'beacon', beacons: [] })
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
   * One shared job every thread pulls from, item by item (shared-job.ts). No thread waits for
   * the main thread to hand it more, so a thread that shares its core with the main thread or
   * pairs a beacon round simply takes fewer items, and all end together. A KeyObject is cached
   * per thread (mldsa.ts), so each thread builds a sender's once.
   */
  async #runShared (kind: SharedJobKind, items: ReadonlyArray<readonly JobField[]>, resultBytes: number): Promise<SharedJob> {
    const job = SharedJob.allocate(items, items[0]?.length ?? 0, resultBytes, (bytes) => this.#takeSpare(bytes))
    const replies = this.#sharedThreads(items.length).map(async (w) => await this.#post(w, { kind, shared: job.buffer }))
    try {
      job.packAll(items)
    } catch (err) {
      job.abort()
      await Promise.allSettled(replies)
      throw err
    }
    this.#inFlight.set(job, kind)
    try {
      await Promise.all(replies)
    } finally {
      this.#inFlight.delete(job)
    }
    return job
  }

  /**
   * The threads a shared job of `items` goes to: one an item at most, and not the beacon thread
   * while it pairs a batch of beacon rounds (a sync verifies a response's rounds while the
   * blocks before it connect): a job is answered only once every thread it went to has
   * answered, so each block's checks would wait for the whole batch. The others, and the
   * calling thread's assist, share the job instead. A block's own round or two (a few
   * milliseconds, which the block waits for anyway) leave the thread in the job.
   */
  #sharedThreads (items: number): number[] {
    const threads = Array.from({ length: Math.min(this.threads, items) }, (_, i) => i)
    if (this.#pairingsInFlight <= BLOCK_PAIRINGS || this.threads === 1) return threads
    return threads.length < this.threads ? threads : threads.filter((i) => i !== this.#beaconThread)
  }

  /**
   * Keeps a finished job's buffer for the next job: only once every thread has answered (a job
   * that failed keeps its buffer, since a thread may still be pulling from it).
   */
  #release (job: SharedJob): void {
    if (this.#spare.length < SPARE_BUFFERS && job.buffer.byteLength <= SPARE_BUFFER_MAX_BYTES) this.#spare.push(job.buffer)
  }

  /** the smallest kept buffer of at least `bytes`, no longer kept */
  #takeSpare (bytes: number): SharedArrayBuffer | undefined {
    let best = -1
    this.#spare.forEach((b, i) => { if (b.byteLength >= bytes && (best < 0 || b.byteLength < this.#spare[best]!.byteLength)) best = i })
    return best < 0 ? undefined : this.#spare.splice(best, 1)[0]
  }

  assist (): number {
    if (this.#closed) return 0
    let done = 0
    for (const [job, kind] of this.#inFlight) done += job.pullPacked(sharedWork(kind, MLDSA_CORES[this.#core], SHA3_CORES[this.#sha3]))
    return done
  }

  #post (index: number, job: { kind: SharedJobKind; shared: SharedArrayBuffer } | { kind: 'beacon'; beacons: BeaconPairingInput[] }): Promise<boolean[]> {
    const worker = this.#workers[index] ?? this.#spawn(index)
    const id = this.#nextId++
    return new Promise<boolean[]>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, worker })
      this.#setBusy(worker, +1)
      worker.postMessage({ id, ...job } satisfies VerifyJob)
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
    const worker = new Worker(workerUrl, { workerData: { core: this.#core, bls: this.#bls, sha3: this.#sha3, blsThread: index === this.#beaconThread }, resourceLimits: { maxYoungGenerationSizeMb: VERIFY_WORKER_YOUNG_GENERATION_MB } })
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

/** What a thread does with one item of a shared job of `kind`, with its cores. */
export function sharedWork (kind: SharedJobKind, mldsa: MldsaCore, sha3: Sha3Core): JobWork {
  if (kind === 'sha3-512') return ([data], result) => { result.set(sha3.sha3_512(data as Uint8Array)) }
  return ([publicKey, message, signature], result) => { result[0] = mldsa.verify(publicKey as Uint8Array, message as Uint8Array, signature as Uint8Array) ? 1 : 0 }
}
