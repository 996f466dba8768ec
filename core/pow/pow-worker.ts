// One PoW worker thread (run by worker-pool.ts). A search claims nonce chunks from a shared
// counter, so the pool's workers cover disjoint ranges without coordinating, and checks the
// shared stop flag between chunks; chunks are sized to take about CHUNK_TARGET_MS, which is
// how quickly an abort is noticed. Below a duty of 100 the thread rests between chunks
// (duty.ts), waiting on the stop flag so an abort or a newer search ends the rest at once.
import { parentPort, workerData } from 'node:worker_threads'
import { setPriority } from 'node:os'
import { getPowCore } from './pow-core.ts'
import { DutyCycle, MAX_DUTY, threadDutyClock } from './duty.ts'
import type { WorkerReply, WorkerSearch, WorkerSetup } from './worker-pool.ts'

const CHUNK_TARGET_MS = 3
const MIN_CHUNK = 1 << 10
const MAX_CHUNK = 1 << 16
const NONCE_LIMIT = 2 ** 53

const setup = workerData as WorkerSetup
// pid 0 is this thread on Linux (nice is per thread there). Where a platform refuses, the
// thread hashes at normal priority: slower relays on a busy machine, never a failed miner.
if (setup.niceness > 0) {
  try { setPriority(0, setup.niceness) } catch { /* not permitted here: normal priority */ }
}
// the pool's kernel chose this core; the name crossed the thread boundary in workerData
const core = getPowCore(setup.core)
const triedTotal = new BigInt64Array(setup.tried)
let chunk = MIN_CHUNK // carried across searches: it tracks this thread's hash rate
// carried across searches too: the gap between two is rest already taken
const duty = setup.duty < MAX_DUTY ? new DutyCycle(setup.duty, threadDutyClock()) : null

function post (reply: WorkerReply): void { parentPort!.postMessage(reply) }

function run (job: WorkerSearch): void {
  const stop = new Int32Array(job.control, 0, 1)
  const nextOffset = new BigInt64Array(job.control, 8, 1)
  while (Atomics.load(stop, 0) === 0) {
    const from = job.startNonce + Number(Atomics.add(nextOffset, 0, BigInt(chunk)))
    if (from >= NONCE_LIMIT) break
    const count = Math.min(chunk, NONCE_LIMIT - from)
    const started = performance.now()
    const result = core.search(job.prefix, from, count, job.target)
    Atomics.add(triedTotal, 0, BigInt(result.tried))
    if (result.found) {
      Atomics.store(stop, 0, 1)
      Atomics.notify(stop, 0)
      post({ type: 'found', id: job.id, nonce: result.nonce, hash: result.hash! })
      return
    }
    const elapsed = performance.now() - started
    const scaled = elapsed > 0 ? Math.round(count * CHUNK_TARGET_MS / elapsed) : MAX_CHUNK
    chunk = Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, scaled))
    const rest = duty?.restMs() ?? 0
    // returns at once when the flag is (or becomes) set: the pool notifies it on stop
    if (rest > 0) Atomics.wait(stop, 0, 0, rest)
  }
  post({ type: 'done', id: job.id })
}

parentPort!.on('message', (job: WorkerSearch) => {
  try {
    run(job)
  } catch (err) {
    post({ type: 'error', id: job.id, message: err instanceof Error ? err.message : String(err) })
  }
})
