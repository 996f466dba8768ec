// The duty cycle of a hashing thread (`ledger run --mine-duty`): after each batch of nonces the
// thread rests long enough that its hashing time over wall time stays at `duty` percent, as the
// CPU-limit options of other miners do. Pure: the clocks are passed in, so the schedule is tested
// with a fake one; the worker (pow-worker.ts) rests with Atomics.wait on the search's stop flag,
// so an abort still ends a rest at once.

/** duty in percent of one core: 100 hashes flat out (the default), 1 rests 99% of the time */
export const MIN_DUTY = 1
export const MAX_DUTY = 100

/** rests shorter than this are carried into the next one (a timer cannot keep sub-ms rests) */
export const MIN_REST_MS = 2
/** the longest single rest: the schedule is re-evaluated after it */
export const MAX_REST_MS = 1000
/** hashing owed back after oversleeping or an idle gap between searches is capped here, so a long
 *  pause is not followed by a burst above the duty */
export const MAX_CREDIT_MS = 50

export interface DutyClock {
  /** a monotonic wall clock, ms */
  wallMs: () => number
  /** the hashing thread's own CPU time, ms: what it really hashed (a thread the scheduler
   *  preempts is not hashing); where there is none, the wall clock */
  cpuMs: () => number
}

export function checkDuty (duty: number): void {
  if (!Number.isInteger(duty) || duty < MIN_DUTY || duty > MAX_DUTY) {
    throw new RangeError(`duty must be an integer percent from ${MIN_DUTY} to ${MAX_DUTY}, got ${duty}`)
  }
}

/**
 * The rest owed by a hashing thread. Each call of `restMs()` (after a batch) adds the CPU time
 * hashed since the last call × 100 / duty and takes off the wall time that passed (the batch, the
 * last rest however long it really was, any gap between searches); what is left is the rest to
 * take now. Oversleeping or a preempted batch therefore corrects itself on the next call, and
 * `cpu / wall` converges to `duty / 100` whatever the timer's precision.
 */
export class DutyCycle {
  readonly duty: number
  readonly #clock: DutyClock
  #owedMs = 0
  #lastWall: number
  #lastCpu: number

  constructor (duty: number, clock: DutyClock) {
    checkDuty(duty)
    this.duty = duty
    this.#clock = clock
    this.#lastWall = clock.wallMs()
    this.#lastCpu = clock.cpuMs()
  }

  /** ms to rest now, after a batch (0: hash on) */
  restMs (): number {
    const wall = this.#clock.wallMs()
    const cpu = this.#clock.cpuMs()
    this.#owedMs += (cpu - this.#lastCpu) * MAX_DUTY / this.duty - (wall - this.#lastWall)
    this.#lastWall = wall
    this.#lastCpu = cpu
    if (this.#owedMs < -MAX_CREDIT_MS) this.#owedMs = -MAX_CREDIT_MS
    return this.#owedMs < MIN_REST_MS ? 0 : Math.min(this.#owedMs, MAX_REST_MS)
  }
}

/** the clock of the calling thread: its CPU time where Node has process.threadCpuUsage (Node 23.9+) */
export function threadDutyClock (): DutyClock {
  const wallMs = (): number => performance.now()
  const usage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage
  if (typeof usage !== 'function') return { wallMs, cpuMs: wallMs }
  return {
    wallMs,
    cpuMs: () => {
      const u = usage.call(process)
      return (u.user + u.system) / 1000
    }
  }
}
