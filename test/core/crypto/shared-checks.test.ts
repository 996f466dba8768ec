import t from 'tap'
import { Worker } from 'node:worker_threads'
import { SharedChecks, pullSharedChecks } from '../../../core/crypto/shared-checks.ts'
import type { SignatureCheck } from '../../../core/crypto/verify-pool.ts'

// checks whose "verification" is a rule on their bytes: verified when the signature's first
// byte equals the message's, so each result says which bytes a thread actually read
function fakeChecks (n: number): SignatureCheck[] {
  return Array.from({ length: n }, (_, i) => ({
    publicKey: Buffer.alloc(3 + (i % 4), i),
    message: Buffer.from([i, 1, 2]),
    signature: i % 3 === 0 ? Buffer.from([i + 1, 9]).toString('hex') : Buffer.from([i, 7, 7, i % 5])
  }))
}
const rule = (c: SignatureCheck): boolean => (c.signature as Uint8Array)[0] === c.message[0] && c.publicKey.every((b) => b === c.message[0])

t.test('every check is claimed once and read back as packed, hex signatures decoded', async (t) => {
  const checks = fakeChecks(25)
  const job = SharedChecks.allocate(checks)
  job.packAll(checks)
  const seen: number[] = []
  t.equal(pullSharedChecks(job.buffer, (c) => { seen.push(c.message[0]!); return rule(c) }), 25)
  t.same(seen, Array.from({ length: 25 }, (_, i) => i), 'in order, each once')
  t.same(job.results(), checks.map((_, i) => i % 3 !== 0))
  t.equal(job.pullPacked(rule), 0, 'nothing left to claim')
})

t.test('the packing thread takes what is left; it never waits for unpacked checks', async (t) => {
  const checks = fakeChecks(10)
  const job = SharedChecks.allocate(checks)
  t.equal(job.pullPacked(rule), 0, 'nothing packed yet: returns at once')
  job.packAll(checks)
  // the claim that found nothing packed is spent; the rest are verified
  t.equal(job.pullPacked(rule), 9)
  t.same(job.results().slice(1), checks.slice(1).map((_, i) => (i + 1) % 3 !== 0))
})

// a thread started before anything is packed waits, then verifies as checks are published
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads')
import(workerData.module).then(({ pullSharedChecks }) => {
  const n = pullSharedChecks(workerData.buffer, (c) => c.signature[0] === c.message[0] && c.publicKey.every((b) => b === c.message[0]))
  parentPort.postMessage(n)
})`

t.test('a thread posted the job before packing waits for each check, and all end together', async (t) => {
  const checks = fakeChecks(40)
  const job = SharedChecks.allocate(checks)
  const module = new URL('../../../core/crypto/shared-checks.ts', import.meta.url).href
  const threads = [0, 1].map(() => new Worker(workerSource, { eval: true, workerData: { buffer: job.buffer, module } }))
  const done = threads.map(async (w) => await new Promise<number>((resolve, reject) => { w.once('message', resolve); w.once('error', reject) }))
  await new Promise((resolve) => setTimeout(resolve, 50)) // the threads are waiting now
  job.packAll(checks)
  const counts = await Promise.all(done)
  t.equal(counts[0]! + counts[1]!, 40, 'each check verified by exactly one thread')
  t.same(job.results(), checks.map((_, i) => i % 3 !== 0))
  await Promise.all(threads.map(async (w) => await w.terminate()))
})

t.test('an aborted job releases a waiting thread', async (t) => {
  const checks = fakeChecks(5)
  const job = SharedChecks.allocate(checks)
  const module = new URL('../../../core/crypto/shared-checks.ts', import.meta.url).href
  const w = new Worker(workerSource, { eval: true, workerData: { buffer: job.buffer, module } })
  const n = new Promise<number>((resolve) => w.once('message', resolve))
  await new Promise((resolve) => setTimeout(resolve, 30))
  job.abort()
  t.equal(await n, 0)
  await w.terminate()
})
