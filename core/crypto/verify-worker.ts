// One signature-verification thread (run by verify-pool.ts): verifies the ML-DSA-87 checks it
// is sent with the configured core, or beacon BLS pairings (batched per beacon), and answers
// with one boolean per check.
import { parentPort, workerData } from 'node:worker_threads'
import { getMldsaCore } from './mldsa.ts'
import type { MldsaCoreName } from './mldsa.ts'
import type { VerifyJob, VerifyReply } from './verify-pool.ts'
import { verifyPairings } from '../entropy/beacon-batch.ts'
import { getBlsCore } from './bls.ts'
import type { BlsCoreName } from './bls.ts'

// the pool's kernel chose these cores; the names crossed the thread boundary in workerData
const names = workerData as { core: MldsaCoreName; bls: BlsCoreName }
const core = getMldsaCore(names.core)
const bls = getBlsCore(names.bls)
// instantiated as the thread starts, beside the first ML-DSA jobs; a beacon job waits for it
const blsReady = bls.ready()

parentPort!.on('message', (job: VerifyJob) => {
  if (job.kind === 'beacon') {
    void blsReady.then(() => reply(job.id, verifyPairings(bls, job.beacons)))
    return
  }
  reply(job.id, job.checks.map((c) => core.verify(c.publicKey, c.message, c.signature)))
})

function reply (id: number, results: boolean[]): void {
  const message: VerifyReply = { id, results }
  parentPort!.postMessage(message)
}
