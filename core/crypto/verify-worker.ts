// One signature-verification thread (run by verify-pool.ts): verifies the ML-DSA-87 checks it
// is sent with the configured core, or beacon BLS pairings (batched per beacon), and answers
// with one boolean per check.
import { parentPort, workerData } from 'node:worker_threads'
import { getMldsaCore } from './mldsa.ts'
import type { MldsaCoreName } from './mldsa.ts'
import { unpackChecks } from './verify-pool.ts'
import type { SignatureCheck, VerifyJob, VerifyReply } from './verify-pool.ts'
import { verifyPairings } from '../entropy/beacon-batch.ts'
import { getBlsCore } from './bls.ts'
import type { BlsCoreName } from './bls.ts'

// the pool's kernel chose these cores; the names crossed the thread boundary in workerData
const names = workerData as { core: MldsaCoreName; bls: BlsCoreName; blsThread: boolean }
const core = getMldsaCore(names.core)
const bls = getBlsCore(names.bls)
// only the pool's beacon thread instantiates the BLS core (a WASM core costs ~25 MiB a thread),
// as it starts, beside its first ML-DSA jobs; a beacon job waits for it
let blsReady: Promise<void> | undefined = names.blsThread ? bls.ready() : undefined

parentPort!.on('message', (job: VerifyJob) => {
  if (job.kind === 'beacon') {
    blsReady ??= bls.ready()
    void blsReady.then(() => reply(job.id, verifyPairings(bls, job.beacons)))
    return
  }
  const mldsa = (checks: SignatureCheck[]): boolean[] => checks.map((c) => core.verify(c.publicKey, c.message, typeof c.signature === 'string' ? Buffer.from(c.signature, 'hex') : c.signature))
  reply(job.id, job.kind === 'mldsa-packed' ? mldsa(unpackChecks(job.packed)) : mldsa(job.checks))
})

function reply (id: number, results: boolean[]): void {
  const message: VerifyReply = { id, results }
  parentPort!.postMessage(message)
}
