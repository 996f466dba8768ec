// One signature-verification thread (run by verify-pool.ts): verifies the ML-DSA-87 checks it
// is sent with the configured core, or beacon BLS pairings (batched per beacon), and answers
// with one boolean per check.
import { parentPort, workerData } from 'node:worker_threads'
import { getMldsaCore } from './mldsa.ts'
import type { MldsaCoreName } from './mldsa.ts'
import { unpackChecks } from './verify-pool.ts'
import type { SignatureCheck, VerifyJob, VerifyReply } from './verify-pool.ts'
import { verifyPairings } from '../entropy/beacon-batch.ts'

// the pool's kernel chose this core; the name crossed the thread boundary in workerData
const core = getMldsaCore((workerData as { core: MldsaCoreName }).core)

parentPort!.on('message', (job: VerifyJob) => {
  const mldsa = (checks: SignatureCheck[]): boolean[] => checks.map((c) => core.verify(c.publicKey, c.message, typeof c.signature === 'string' ? Buffer.from(c.signature, 'hex') : c.signature))
  const results = job.kind === 'beacon' ? verifyPairings(job.beacons) : job.kind === 'mldsa-packed' ? mldsa(unpackChecks(job.packed)) : mldsa(job.checks)
  const reply: VerifyReply = { id: job.id, results }
  parentPort!.postMessage(reply)
})
