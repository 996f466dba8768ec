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
  signature: Uint8Array
}

export interface SignatureVerifier {
  /** one result per check, in order */
  verifyAll(checks: SignatureCheck[]): Promise<boolean[]>
  /** beacon BLS pairings (runs of one beacon batch-verified), one result per input, in order */
  verifyBeacons?(inputs: BeaconPairingInput[]): Promise<boolean[]>
}

export type VerifyJob = { id: number; kind?: 'mldsa'; checks: SignatureCheck[] } | { id: number; kind: 'beacon'; beacons: BeaconPairingInput[] }
export interface VerifyReply { id: number; results: boolean[] }

interface Pending { resolve: (results: boolean[]) => void; reject: (err: Error) => void; worker: Worker }

const workerUrl = new URL('./verify-worker.ts', import.meta.url)
/** young generation of a verify thread (MiB): its garbage is short-lived, a small one suffices */
export const VERIFY_WORKER_YOUNG_GENERATION_MB = 16
/** below this many rounds per thread, splitting a beacon run costs more batching than it gains */
const BEACON_BATCH_MIN = 8

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
    const workers = Math.min(this.threads, checks.length)
    const per = Math.ceil(checks.length / workers)
    const parts: Array<Promise<boolean[]>> = []
    for (let w = 0; w < workers; w++) parts.push(this.#run(w, checks.slice(w * per, (w + 1) * per)))
    return (await Promise.all(parts)).flat()
  }

  /**
   * Beacon pairings on the same threads as the ML-DSA checks. Inputs are split per beacon so
   * each thread gets whole runs to batch; a block's one or two rounds go to one thread while
   * its transactions' signatures keep the others busy.
   */
  async verifyBeacons (inputs: BeaconPairingInput[]): Promise<boolean[]> {
    if (this.#closed) throw new Error('signature verify pool is closed')
    if (inputs.length === 0) return []
    const workers = Math.min(this.threads, Math.ceil(inputs.length / BEACON_BATCH_MIN))
    const per = Math.ceil(inputs.length / workers)
    const parts: Array<Promise<boolean[]>> = []
    // the last thread first: the ML-DSA split starts at thread 0, so a lone block's pairing runs beside it
    for (let w = 0; w < workers; w++) parts.push(this.#post(this.threads - 1 - w, { kind: 'beacon', beacons: inputs.slice(w * per, (w + 1) * per) }))
    return (await Promise.all(parts)).flat()
  }

  /**
   * Starts every thread now instead of on first use, so each instantiates its BLS core (a few
   * hundred milliseconds of WASM set-up) while the node is still connecting, not while the
   * first block waits. Idle threads do not keep the process alive.
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

  #run (index: number, checks: SignatureCheck[]): Promise<boolean[]> {
    return this.#post(index, { kind: 'mldsa', checks })
  }

  #post (index: number, job: { kind: 'mldsa'; checks: SignatureCheck[] } | { kind: 'beacon'; beacons: BeaconPairingInput[] }): Promise<boolean[]> {
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
    const worker = new Worker(workerUrl, { workerData: { core: this.#core, bls: this.#bls }, resourceLimits: { maxYoungGenerationSizeMb: VERIFY_WORKER_YOUNG_GENERATION_MB } })
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
