// One signature-verification thread (run by verify-pool.ts): verifies the ML-DSA-87 checks it
// is sent with the configured core, or beacon BLS pairings (batched per beacon), and answers
// with one boolean per check (for a shared job, in the job's buffer).
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads'
import type { MessagePort } from 'node:worker_threads'
import { getMldsaCore } from './mldsa.ts'
import type { MldsaCoreName } from './mldsa.ts'
import { sharedWork } from './verify-pool.ts'
import type { VerifyJob, VerifyReply } from './verify-pool.ts'
import { pullSharedJob } from './shared-job.ts'
import { getSha3Core } from './sha3.ts'
import type { Sha3CoreName } from './sha3.ts'
import { verifyPairings } from '../entropy/beacon-batch.ts'
import { getBlsCore } from './bls.ts'
import type { BlsCoreName } from './bls.ts'

// the pool's kernel chose these cores; the names crossed the thread boundary in workerData
const names = workerData as { core: MldsaCoreName; bls: BlsCoreName; sha3: Sha3CoreName; blsThread: boolean }
const mldsa = getMldsaCore(names.core)
const sha3 = getSha3Core(names.sha3)
const work = { mldsa: sharedWork('mldsa', mldsa, sha3), 'sha3-512': sharedWork('sha3-512', mldsa, sha3) }
const bls = getBlsCore(names.bls)
const port = parentPort as MessagePort
// only the pool's beacon thread instantiates the BLS core (a WASM core costs ~25 MiB a thread),
// as it starts, beside its first ML-DSA jobs; a beacon job waits for it
let blsReady: Promise<void> | undefined = names.blsThread ? bls.ready() : undefined
let blsLoaded = false
void blsReady?.then(() => { blsLoaded = true })

function handle (job: VerifyJob): void {
  if (job.kind === 'beacon') {
    if (blsLoaded) { reply(job.id, verifyPairings(bls, job.beacons)); return }
    blsReady ??= bls.ready()
    void blsReady.then(() => { blsLoaded = true; reply(job.id, verifyPairings(bls, job.beacons)) })
    return
  }
  pullSharedJob(job.shared, work[job.kind], answerWaiting)
  reply(job.id, [])
}

/**
 * Between two items of a shared job: a job that arrived meanwhile (a beacon round the block
 * quotes, sent after its signatures) is answered now instead of after the last item.
 */
function answerWaiting (): void {
  const waiting = receiveMessageOnPort(port)
  if (waiting !== undefined) handle(waiting.message as VerifyJob)
}

port.on('message', handle)

function reply (id: number, results: boolean[]): void {
  const message: VerifyReply = { id, results }
  port.postMessage(message)
}
