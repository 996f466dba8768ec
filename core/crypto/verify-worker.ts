// One signature-verification thread (run by verify-pool.ts): verifies the ML-DSA-87 checks it
// is sent with the configured core and answers with one boolean per check.
import { parentPort, workerData } from 'node:worker_threads'
import { getMldsaCore } from './mldsa.ts'
import type { MldsaCoreKind } from './mldsa.ts'
import type { VerifyJob, VerifyReply } from './verify-pool.ts'

const core = getMldsaCore((workerData as { core: MldsaCoreKind }).core)

parentPort!.on('message', (job: VerifyJob) => {
  const reply: VerifyReply = { id: job.id, results: job.checks.map((c) => core.verify(c.publicKey, c.message, c.signature)) }
  parentPort!.postMessage(reply)
})
