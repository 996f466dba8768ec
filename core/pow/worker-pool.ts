// Multi-threaded nonce search: `threads` worker_threads, each running a PoW core (wasm or
// js) over chunks of nonces it claims from a shared counter. The main thread only posts the
// job and waits for a message, so it is never blocked. Stopping (abort, a newer search,
// close) sets a shared flag that every worker checks between chunks of a few milliseconds.
import { Worker } from 'node:worker_threads'
import { checkSearch } from './nonce.ts'
import { POW_CORES } from './pow-core.ts'
import { checkDuty, MAX_DUTY } from './duty.ts'
import type { PowCoreName } from './pow-core.ts'

export interface PowWorkerPoolOptions {
  threads: number
  /** the kernel's PoW core (its `cores.pow`); each worker looks it up by this name */
  core: PowCoreName
  /** percent of each thread's time spent hashing, 1-100 (duty.ts; default 100: flat out) */
  duty?: number
  /** the workers' scheduling niceness, 0 (default) to 19 (lowest): a miner runs its threads at
   *  19, as cpuminer does, so the node's own threads (relay, validation, the API) never queue
   *  behind hashing on a busy machine; a benchmark keeps 0. Linux sets it per thread. */
  niceness?: number
}

export interface PoolSearchRequest {
  /** The header without its trailing 8-byte nonce. */
  prefix: Uint8Array
  /** 64 bytes, big-endian: the hash must not exceed it (core/chain/target.ts targetBytes) */
  target: Uint8Array
  /** First nonce to try (default 0); the pool covers startNonce upwards. */
  startNonce?: number
  signal?: AbortSignal
}

export interface PoolSearchResult {
  nonce: number
  hash: Uint8Array
  /** Hashes the pool had counted for this search when the nonce came back. */
  tried: number
}

// Messages between the pool and pow-worker.ts.
export interface WorkerSetup { core: PowCoreName; tried: SharedArrayBuffer; duty: number; niceness: number }
export interface WorkerSearch {
  id: number
  prefix: Uint8Array
  target: Uint8Array
  startNonce: number
  // Int32 stop flag at byte 0, BigInt64 next nonce offset to claim at byte 8
  control: SharedArrayBuffer
}
export type WorkerReply =
  | { type: 'found'; id: number; nonce: number; hash: Uint8Array }
  | { type: 'done'; id: number }
  | { type: 'error'; id: number; message: string }

interface ActiveSearch {
  id: number
  stop: Int32Array
  doneWorkers: number
  triedAtStart: number
  resolve: (result: PoolSearchResult | null) => void
  reject: (err: Error) => void
  detachSignal: () => void
}

const workerUrl = new URL('./pow-worker.ts', import.meta.url)

export class PowWorkerPool {
  readonly threads: number
  readonly core: PowCoreName
  readonly duty: number
  readonly #workers: Worker[]
  readonly #tried = new BigInt64Array(new SharedArrayBuffer(8))
  #active: ActiveSearch | null = null
  #nextId = 1
  #closed = false
  #failure: Error | null = null
  // rate of the latest search: hashes and milliseconds, frozen when it ends
  #rateStart = { at: 0, tried: 0 }
  #rateEnd: { at: number; tried: number } | null = null

  constructor (options: PowWorkerPoolOptions) {
    if (!Number.isInteger(options.threads) || options.threads < 1) {
      throw new RangeError(`threads must be an integer >= 1, got ${options.threads}`)
    }
    if (!Object.hasOwn(POW_CORES, options.core)) {
      throw new RangeError(`core must be one of ${Object.keys(POW_CORES).join(', ')}, got ${String(options.core)}`)
    }
    const duty = options.duty ?? MAX_DUTY
    checkDuty(duty)
    const niceness = options.niceness ?? 0
    if (!Number.isInteger(niceness) || niceness < 0 || niceness > 19) {
      throw new RangeError(`niceness must be an integer from 0 to 19, got ${String(options.niceness)}`)
    }
    this.threads = options.threads
    this.core = options.core
    this.duty = duty
    const setup: WorkerSetup = { core: options.core, tried: this.#tried.buffer as SharedArrayBuffer, duty, niceness }
    this.#workers = Array.from({ length: options.threads }, () => this.#spawn(setup))
  }

  /** Hashes computed by all workers since the pool started. */
  get hashesTried (): number { return Number(Atomics.load(this.#tried, 0)) }

  /** Hashes per second of the running search, or of the last one once it has ended. */
  get hashRate (): number {
    const end = this.#rateEnd ?? { at: performance.now(), tried: this.hashesTried }
    const ms = end.at - this.#rateStart.at
    return ms > 0 ? (end.tried - this.#rateStart.tried) * 1000 / ms : 0
  }

  /**
   * Finds a nonce whose SHA3-512(prefix ‖ nonce), as a big-endian integer, is at most `target`.
   * Resolves null when the signal aborts (at once; workers stop within a chunk), when a newer
   * search replaces this one, when the pool closes, or when the nonce space is exhausted.
   */
  search (request: PoolSearchRequest): Promise<PoolSearchResult | null> {
    const startNonce = request.startNonce ?? 0
    try {
      checkSearch(startNonce, 0, request.target)
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new RangeError(String(err)))
    }
    if (this.#failure !== null) return Promise.reject(this.#failure)
    if (this.#closed || request.signal?.aborted === true) return Promise.resolve(null)
    this.#finish(null)

    const control = new SharedArrayBuffer(16)
    const id = this.#nextId++
    const { promise, resolve, reject } = Promise.withResolvers<PoolSearchResult | null>()
    const onAbort = (): void => { if (this.#active?.id === id) this.#finish(null) }
    request.signal?.addEventListener('abort', onAbort, { once: true })
    this.#active = {
      id,
      stop: new Int32Array(control, 0, 1),
      doneWorkers: 0,
      triedAtStart: this.hashesTried,
      resolve,
      reject,
      detachSignal: () => request.signal?.removeEventListener('abort', onAbort)
    }
    this.#rateStart = { at: performance.now(), tried: this.hashesTried }
    this.#rateEnd = null
    // a tight copy: posting a view would clone its whole underlying buffer to every worker
    const prefix = new Uint8Array(request.prefix)
    const job: WorkerSearch = { id, prefix, target: new Uint8Array(request.target), startNonce, control }
    for (const worker of this.#workers) {
      worker.ref()
      worker.postMessage(job)
    }
    return promise
  }

  /** Stops any search (it resolves null) and terminates the workers. */
  async close (): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    this.#finish(null)
    await Promise.all(this.#workers.map(async (worker) => await worker.terminate()))
  }

  #spawn (setup: WorkerSetup): Worker {
    const worker = new Worker(workerUrl, { workerData: setup })
    worker.unref() // an idle pool does not keep the process alive
    worker.on('message', (reply: WorkerReply) => { this.#onReply(reply) })
    worker.on('error', (err: Error) => { this.#fail(err) })
    worker.on('exit', (code) => {
      if (!this.#closed) this.#fail(new Error(`PoW worker exited unexpectedly (code ${code})`))
    })
    return worker
  }

  #onReply (reply: WorkerReply): void {
    const active = this.#active
    if (active === null || reply.id !== active.id) return // a stopped search's late reply
    if (reply.type === 'found') {
      this.#finish({ nonce: reply.nonce, hash: reply.hash, tried: this.hashesTried - active.triedAtStart })
    } else if (reply.type === 'error') {
      this.#finish(new Error(`PoW worker failed: ${reply.message}`))
    } else if (++active.doneWorkers === this.threads) {
      this.#finish(null) // every worker ran off the end of the nonce space
    }
  }

  #fail (err: Error): void {
    this.#failure ??= err
    this.#finish(err)
  }

  /** Ends the active search, if any, with a result, null, or an error. */
  #finish (outcome: PoolSearchResult | null | Error): void {
    const active = this.#active
    if (active === null) return
    this.#active = null
    Atomics.store(active.stop, 0, 1)
    Atomics.notify(active.stop, 0) // wakes workers resting under a duty below 100
    active.detachSignal()
    this.#rateEnd = { at: performance.now(), tried: this.hashesTried }
    for (const worker of this.#workers) worker.unref()
    if (outcome instanceof Error) active.reject(outcome)
    else active.resolve(outcome)
  }
}
