import t from 'tap'
import { Worker } from 'node:worker_threads'
import { SharedJob, pullSharedJob } from '../../../core/crypto/shared-job.ts'
import type { JobField, JobWork } from '../../../core/crypto/shared-job.ts'
import { waitFor } from '../../helpers/wait.ts'

// items of three fields whose "verification" is a rule on their bytes: passed when the third
// field's first byte equals the second's and every byte of the first does, so each result says
// which bytes a thread actually read; the result also carries the item's number (2 bytes)
function fakeItems (n: number): JobField[][] {
  return Array.from({ length: n }, (_, i) => [
    Buffer.alloc(3 + (i % 4), i),
    Buffer.from([i, 1, 2]),
    i % 3 === 0 ? Buffer.from([i + 1, 9]).toString('hex') : Buffer.from([i, 7, 7, i % 5])
  ])
}
const rule: JobWork = ([a, b, c], result) => {
  result[0] = c![0] === b![0] && a!.every((x) => x === b![0]) ? 1 : 0
  result[1] = b![0]!
}
const expected = (n: number): number[][] => Array.from({ length: n }, (_, i) => [i % 3 !== 0 ? 1 : 0, i])
const resultsOf = (job: SharedJob): number[][] => Array.from({ length: job.count }, (_, i) => [...job.result(i)])

t.test('every item is claimed once and read back as packed, hex fields decoded', async (t) => {
  const items = fakeItems(25)
  const job = SharedJob.allocate(items, 3, 2)
  job.packAll(items)
  t.equal(pullSharedJob(job.buffer, rule), 25)
  t.same(resultsOf(job), expected(25), 'each item its own result, in order')
  t.equal(job.pullPacked(rule), 0, 'nothing left to claim')
})

t.test('items must all have the job\'s number of fields', async (t) => {
  t.throws(() => SharedJob.allocate([[Buffer.alloc(1)], [Buffer.alloc(1), Buffer.alloc(1)]], 1, 1), RangeError)
})

t.test('the packing thread takes what is left; it never waits for unpacked items', async (t) => {
  const items = fakeItems(10)
  const job = SharedJob.allocate(items, 3, 2)
  t.equal(job.pullPacked(rule), 0, 'nothing packed yet: returns at once')
  job.packAll(items)
  // the claim that found nothing packed is spent; the rest are done
  t.equal(job.pullPacked(rule), 9)
  t.same(resultsOf(job).slice(1), expected(10).slice(1))
})

// a thread started before anything is packed waits, then works as items are published
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads')
import(workerData.module).then(({ pullSharedJob }) => {
  const n = pullSharedJob(workerData.buffer, ([a, b, c], result) => {
    result[0] = c[0] === b[0] && a.every((x) => x === b[0]) ? 1 : 0
    result[1] = b[0]
  })
  parentPort.postMessage(n)
})`
const module = new URL('../../../core/crypto/shared-job.ts', import.meta.url).href

t.test('threads posted the job before packing wait for each item, and all end together', async (t) => {
  const items = fakeItems(40)
  const job = SharedJob.allocate(items, 3, 2)
  const threads = [0, 1].map(() => new Worker(workerSource, { eval: true, workerData: { buffer: job.buffer, module } }))
  const done = threads.map(async (w) => await new Promise<number>((resolve, reject) => { w.once('message', resolve); w.once('error', reject) }))
  await waitFor('both threads to claim an item and wait for it', () => job.claimed >= 2, 5000)
  job.packAll(items)
  const counts = await Promise.all(done)
  t.equal(counts[0]! + counts[1]!, 40, 'each item done by exactly one thread')
  t.same(resultsOf(job), expected(40))
  await Promise.all(threads.map(async (w) => await w.terminate()))
})

t.test('an aborted job releases a waiting thread', async (t) => {
  const items = fakeItems(5)
  const job = SharedJob.allocate(items, 3, 2)
  const w = new Worker(workerSource, { eval: true, workerData: { buffer: job.buffer, module } })
  const n = new Promise<number>((resolve) => w.once('message', resolve))
  await waitFor('the thread to claim an item and wait for it', () => job.claimed >= 1, 5000)
  job.abort()
  t.equal(await n, 0)
  await w.terminate()
})

t.test('a spare buffer large enough is reused and starts over; one too small is not offered', async (t) => {
  const items = fakeItems(12)
  const first = SharedJob.allocate(items, 3, 2)
  first.packAll(items)
  pullSharedJob(first.buffer, rule)
  const asked: number[] = []
  const again = SharedJob.allocate(items.slice(0, 7), 3, 2, (bytes) => { asked.push(bytes); return bytes <= first.buffer.byteLength ? first.buffer : undefined })
  t.equal(again.buffer, first.buffer, 'the spare was used')
  t.ok(asked[0]! <= first.buffer.byteLength)
  again.packAll(items.slice(0, 7))
  t.equal(pullSharedJob(again.buffer, rule), 7, 'claims start from the first item again')
  t.same(resultsOf(again), expected(7))
  const bigger = SharedJob.allocate(fakeItems(40), 3, 2, () => undefined)
  t.not(bigger.buffer, first.buffer, 'nothing offered: a fresh buffer')
})
