// The duty cycle of a hashing thread (core/pow/duty.ts) against a fake clock: hashing time over
// wall time converges to the duty, however long the rests really last, however often the
// thread is preempted, and a long idle gap buys no burst above it.
import t from 'tap'
import { checkDuty, DutyCycle, MAX_CREDIT_MS, MAX_REST_MS, MIN_REST_MS } from '../../../core/pow/duty.ts'
import { seededRandom } from '../../helpers/random.ts'

class FakeClock {
  wall = 1000
  cpu = 0
  /** hash `cpuMs` of CPU time, taking `wallMs` of wall time (more when the thread is preempted) */
  hash (cpuMs: number, wallMs = cpuMs): void { this.cpu += cpuMs; this.wall += wallMs }
  idle (ms: number): void { this.wall += ms }
  readonly clock = { wallMs: () => this.wall, cpuMs: () => this.cpu }
}

interface Run { cpu: number; wall: number; rests: number[] }

/** batches of `batchMs` for `seconds` of wall time; each rest lasts `restTaken(asked)` */
function run (duty: number, seconds: number, o: { batchMs?: () => number; preempt?: () => number; restTaken?: (asked: number) => number } = {}): Run {
  const f = new FakeClock()
  const cycle = new DutyCycle(duty, f.clock)
  const startWall = f.wall
  const rests: number[] = []
  while (f.wall - startWall < seconds * 1000) {
    const batch = o.batchMs?.() ?? 3
    f.hash(batch, batch * (o.preempt?.() ?? 1))
    const rest = cycle.restMs()
    if (rest > 0) { rests.push(rest); f.idle(o.restTaken?.(rest) ?? rest) }
  }
  return { cpu: f.cpu, wall: f.wall - startWall, rests }
}

t.test('duty 100 never rests', async (t) => {
  const r = run(100, 10)
  t.same(r.rests, [])
  t.equal(r.cpu, r.wall)
})

t.test('hashing over wall time converges to the duty', async (t) => {
  for (const duty of [1, 10, 15, 25, 50, 90, 99]) {
    const r = run(duty, 60)
    t.ok(Math.abs(r.cpu / r.wall - duty / 100) < 0.005, `duty ${duty}: ${(r.cpu / r.wall * 100).toFixed(2)}% hashing`)
    t.ok(r.rests.every((ms) => ms >= MIN_REST_MS && ms <= MAX_REST_MS), `duty ${duty}: every rest within ${MIN_REST_MS}-${MAX_REST_MS} ms`)
  }
  t.equal(run(25, 1).rests[0], 9, 'a 3 ms batch at 25% is followed by a 9 ms rest')
})

t.test('short owed rests are carried until they are worth a timer', async (t) => {
  const r = run(95, 10)
  // 3 ms at 95% owes ~0.16 ms: one rest per ~13 batches, never a sub-ms one
  t.ok(r.rests.length > 0 && r.rests.every((ms) => ms >= MIN_REST_MS))
  t.ok(Math.abs(r.cpu / r.wall - 0.95) < 0.005)
})

t.test('oversleeping, a late timer and random batch sizes are corrected on the next call', async (t) => {
  const random = seededRandom(28)
  const r = run(25, 60, { batchMs: () => 1 + random() * 5, restTaken: (asked) => asked + random() * 4 })
  t.ok(Math.abs(r.cpu / r.wall - 0.25) < 0.01, `${(r.cpu / r.wall * 100).toFixed(2)}% hashing with rests up to 4 ms late`)
  const early = run(25, 60, { restTaken: (asked) => asked / 2 })
  t.ok(Math.abs(early.cpu / early.wall - 0.25) < 0.01, 'rests cut short (an early wake-up) are made up')
})

t.test('a preempted thread is charged its CPU time, not its wall time', async (t) => {
  // every batch takes twice its CPU time in wall time (the machine is shared): the thread still
  // hashes its duty of one core's time, so its hash rate does not move with the machine's load
  const r = run(20, 60, { preempt: () => 2 })
  t.ok(Math.abs(r.cpu / r.wall - 0.2) < 0.005)
})

t.test('an idle gap buys at most MAX_CREDIT_MS of hashing above the duty', async (t) => {
  const f = new FakeClock()
  const cycle = new DutyCycle(10, f.clock)
  f.idle(60_000) // a minute between searches
  let burst = 0
  for (;;) {
    f.hash(1)
    burst += 1
    if (cycle.restMs() > 0) break
  }
  // 1 ms batches at 10% owe 9 ms each: the 50 ms credit is spent after ~6 of them
  t.ok(burst <= Math.ceil(MAX_CREDIT_MS / 9) + 1, `${burst} ms hashed before the first rest`)
})

t.test('the duty is an integer percent from 1 to 100', async (t) => {
  for (const bad of [0, 101, 12.5, Number.NaN, -5]) t.throws(() => checkDuty(bad), /duty must be an integer percent from 1 to 100/, String(bad))
  t.throws(() => new DutyCycle(0, new FakeClock().clock), RangeError)
  t.doesNotThrow(() => { checkDuty(1); checkDuty(100) })
})
