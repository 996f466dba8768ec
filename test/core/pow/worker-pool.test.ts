import t from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import { getPriority } from 'node:os'
import { seededBytes } from '../../helpers/random.ts'
import { PowWorkerPool } from '../../../core/pow/worker-pool.ts'
import { getPowCore, meetsTarget } from '../../../core/pow/pow-core.ts'
import { difficultyTargetBytes as zeros } from '../../../core/chain/target.ts'

// every wait in this file is bounded: a hung pool fails the test instead of stalling the run
async function within<T> (promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => { reject(new Error(`${what} did not settle within ${ms} ms`)) }, ms)
  })
  try { return await Promise.race([promise, timeout]) } finally { clearTimeout(timer) }
}
async function until (condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`)
    await pause(50)
  }
}
const pause = async (ms: number): Promise<void> => await new Promise((resolve) => setTimeout(resolve, ms))
const IMPOSSIBLE = zeros(40) // a target no search here will reach

for (const core of ['wasm', 'js'] as const) {
  t.test(`${core} pool finds a valid nonce`, async (t) => {
    const pool = new PowWorkerPool({ threads: 2, core })
    t.teardown(async () => { await pool.close() })
    const prefix = seededBytes(`${core} pool prefix`, 264)
    const result = await within(pool.search({ prefix, target: zeros(3), startNonce: 1_000_000 }), 20_000, 'search')
    t.ok(result !== null)
    t.ok(result!.nonce >= 1_000_000, 'at or after startNonce')
    t.ok(meetsTarget(result!.hash, zeros(3)))
    t.same(result!.hash, getPowCore('js').hashHeader(prefix, result!.nonce), 'hash is SHA3-512 of prefix ‖ nonce')
    t.ok(result!.tried >= 1)
    t.ok(pool.hashesTried >= result!.tried)
    t.ok(pool.hashRate > 0)
  })
}

t.test('abort resolves null and the workers stop', async (t) => {
  const pool = new PowWorkerPool({ threads: 2, core: 'wasm' })
  t.teardown(async () => { await pool.close() })
  const controller = new AbortController()
  const search = pool.search({ prefix: seededBytes('aborted search', 264), target: IMPOSSIBLE, signal: controller.signal })
  await until(() => pool.hashesTried > 0, 20_000, 'hashing')
  controller.abort()
  t.equal(await within(search, 1000, 'aborted search'), null)
  // A worker takes its next job only once it has left the one before: a search near the end of
  // the nonce space, which ends when every worker has answered it, shows they all stopped.
  const tail = pool.search({ prefix: new Uint8Array(264), target: IMPOSSIBLE, startNonce: 2 ** 53 - 5000 })
  t.equal(await within(tail, 20_000, 'a search every worker answers'), null, 'every worker left the aborted search')
  const rate = pool.hashRate
  await pause(50)
  t.equal(pool.hashRate, rate, 'the rate of an ended search is frozen')
})

t.test('an already aborted signal resolves null at once', async (t) => {
  const pool = new PowWorkerPool({ threads: 1, core: 'js' })
  t.teardown(async () => { await pool.close() })
  t.equal(await pool.search({ prefix: new Uint8Array(10), target: zeros(1), signal: AbortSignal.abort() }), null)
})

t.test('a newer search replaces the running one', async (t) => {
  const pool = new PowWorkerPool({ threads: 2, core: 'wasm' })
  t.teardown(async () => { await pool.close() })
  const first = pool.search({ prefix: seededBytes('replaced search', 264), target: IMPOSSIBLE })
  await until(() => pool.hashesTried > 0, 20_000, 'the first search hashing')
  const prefix = seededBytes('replacing search', 264)
  const second = pool.search({ prefix, target: zeros(2) })
  t.equal(await within(first, 1000, 'replaced search'), null)
  const result = await within(second, 20_000, 'new search')
  t.ok(result !== null && meetsTarget(result.hash, zeros(2)))
  t.same(result!.hash, getPowCore('wasm').hashHeader(prefix, result!.nonce))
})

t.test('running off the end of the nonce space resolves null', async (t) => {
  const pool = new PowWorkerPool({ threads: 2, core: 'wasm' })
  t.teardown(async () => { await pool.close() })
  const result = await within(pool.search({ prefix: new Uint8Array(264), target: IMPOSSIBLE, startNonce: 2 ** 53 - 5000 }), 20_000, 'exhausted search')
  t.equal(result, null)
})

t.test('close stops a running search and the pool', async (t) => {
  const pool = new PowWorkerPool({ threads: 2, core: 'js' })
  const running = pool.search({ prefix: seededBytes('search on a closing pool', 100), target: IMPOSSIBLE })
  await until(() => pool.hashesTried > 0, 20_000, 'the search hashing')
  await within(pool.close(), 5000, 'close')
  t.equal(await within(running, 1000, 'search on a closed pool'), null)
  t.equal(await pool.search({ prefix: new Uint8Array(1), target: zeros(1) }), null, 'a closed pool finds nothing')
  await within(pool.close(), 1000, 'second close')
})

t.test('a throttled pool (--mine-duty) finds valid nonces and stops when aborted mid-rest', async (t) => {
  // the schedule itself is tested against a fake clock (duty.test.ts); here: the workers rest
  // between chunks and still search, answer and stop like an unthrottled pool
  const pool = new PowWorkerPool({ threads: 2, core: 'wasm', duty: 1 })
  t.teardown(async () => { await pool.close() })
  t.equal(pool.duty, 1)
  const prefix = seededBytes('throttled search', 264)
  const result = await within(pool.search({ prefix, target: zeros(2) }), 20_000, 'throttled search')
  t.ok(result !== null && meetsTarget(result.hash, zeros(2)))
  t.same(result!.hash, getPowCore('js').hashHeader(prefix, result!.nonce))
  const controller = new AbortController()
  const before = pool.hashesTried
  const aborted = pool.search({ prefix: seededBytes('aborted throttled search', 264), target: IMPOSSIBLE, signal: controller.signal })
  await until(() => pool.hashesTried > before, 20_000, 'throttled hashing')
  controller.abort()
  t.equal(await within(aborted, 1000, 'aborted throttled search'), null)
  const tail = pool.search({ prefix: new Uint8Array(264), target: IMPOSSIBLE, startNonce: 2 ** 53 - 5000 })
  t.equal(await within(tail, 20_000, 'a search every throttled worker answers'), null, 'every worker left its rest and the aborted search')
})

/** this process's threads by their niceness (Linux: /proc/self/task/<tid>/stat, field 19) */
function threadsAtNice (nice: number): number {
  let n = 0
  for (const tid of readdirSync('/proc/self/task')) {
    const fields = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    if (Number(fields[16]) === nice) n++
  }
  return n
}

t.test('a pool with niceness 19 runs its workers, and only them, at the lowest priority', async (t) => {
  t.equal(threadsAtNice(19), 0, 'no thread of this process is niced before')
  const pool = new PowWorkerPool({ threads: 2, core: 'wasm', niceness: 19 })
  t.teardown(async () => { await pool.close() })
  const search = pool.search({ prefix: seededBytes('niced search', 264), target: IMPOSSIBLE })
  await until(() => threadsAtNice(19) === 2, 20_000, 'both workers at nice 19')
  t.equal(getPriority(), 0, 'the main thread keeps its priority')
  await pool.close()
  t.equal(await within(search, 1000, 'closed search'), null)
  const plain = new PowWorkerPool({ threads: 1, core: 'wasm' })
  t.teardown(async () => { await plain.close() })
  await within(plain.search({ prefix: seededBytes('plain search', 264), target: zeros(1) }), 20_000, 'plain search')
  t.equal(threadsAtNice(19), 0, 'a default pool does not nice its workers (the niced ones exited)')
})

t.test('bad options and requests are refused', async (t) => {
  t.throws(() => new PowWorkerPool({ threads: 0, core: 'wasm' }), RangeError)
  for (const duty of [0, 101, 50.5]) t.throws(() => new PowWorkerPool({ threads: 1, core: 'wasm', duty }), /duty must be an integer percent from 1 to 100/)
  t.throws(() => new PowWorkerPool({ threads: 1, core: 'gpu' as 'js' }), RangeError)
  t.throws(() => new PowWorkerPool({ threads: 1, core: 'js', niceness: 20 }), /niceness must be an integer from 0 to 19, got 20/)
  t.throws(() => new PowWorkerPool({ threads: 1, core: 'js', niceness: -1 }), RangeError)
  const pool = new PowWorkerPool({ threads: 1, core: 'js' })
  t.teardown(async () => { await pool.close() })
  await t.rejects(pool.search({ prefix: new Uint8Array(1), target: zeros(1), startNonce: -1 }), RangeError)
  await t.rejects(pool.search({ prefix: new Uint8Array(1), target: zeros(1), startNonce: 2 ** 53 }), RangeError)
  await t.rejects(pool.search({ prefix: new Uint8Array(1), target: new Uint8Array(63) }), RangeError)
})
