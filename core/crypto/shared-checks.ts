// A block's ML-DSA checks laid out in one SharedArrayBuffer that the verify pool's threads all
// pull from. The main thread allocates it, posts it to every thread, then packs the checks in
// order, publishing how many are ready; each thread claims the next check with one atomic add
// and waits (bounded) only when it has caught up with the packing. Nobody hands out work, so a
// thread that shares its core with a busy main thread simply ends up with fewer checks.
//
//   bytes 0-15   Int32 control words: NEXT (next check to claim), PACKED (checks ready),
//                COUNT, ABORT (non-zero: the main thread gave up packing)
//   then         Uint32 lengths (public key, message, signature) per check
//   then         Uint32 offset of each check's bytes in the data area
//   then         Uint8 result per check (1: verified)
//   then         the checks' bytes, back to back
import type { SignatureCheck } from './verify-pool.ts'

const NEXT = 0
const PACKED = 1
const COUNT = 2
const ABORT = 3
const CONTROL_BYTES = 16
/** a waiting thread looks at ABORT this often (ms) even if nobody wakes it */
const WAIT_SLICE_MS = 50

const signatureLength = (c: SignatureCheck): number => typeof c.signature === 'string' ? c.signature.length >>> 1 : c.signature.length

interface Layout { control: Int32Array; lens: Uint32Array; offsets: Uint32Array; results: Uint8Array; data: Uint8Array; count: number }

function layout (buffer: SharedArrayBuffer, count: number): Layout {
  const lensAt = CONTROL_BYTES
  const offsetsAt = lensAt + 12 * count
  const resultsAt = offsetsAt + 4 * count
  const dataAt = resultsAt + count
  return {
    control: new Int32Array(buffer, 0, 4),
    lens: new Uint32Array(buffer, lensAt, 3 * count),
    offsets: new Uint32Array(buffer, offsetsAt, count),
    results: new Uint8Array(buffer, resultsAt, count),
    data: new Uint8Array(buffer, dataAt),
    count
  }
}

/** The main thread's side: allocate, pack, read the results. */
export class SharedChecks {
  readonly buffer: SharedArrayBuffer
  readonly #at: Layout

  private constructor (buffer: SharedArrayBuffer, at: Layout) {
    this.buffer = buffer
    this.#at = at
  }

  /** Room for `checks` (their sizes only; nothing is packed yet, so threads may be sent it at once). */
  static allocate (checks: readonly SignatureCheck[]): SharedChecks {
    const count = checks.length
    let total = 0
    for (const c of checks) total += c.publicKey.length + c.message.length + signatureLength(c)
    const buffer = new SharedArrayBuffer(CONTROL_BYTES + 17 * count + total)
    const at = layout(buffer, count)
    at.control[COUNT] = count
    let pos = 0
    checks.forEach((c, i) => {
      at.lens[3 * i] = c.publicKey.length
      at.lens[3 * i + 1] = c.message.length
      at.lens[3 * i + 2] = signatureLength(c)
      at.offsets[i] = pos
      pos += c.publicKey.length + c.message.length + signatureLength(c)
    })
    return new SharedChecks(buffer, at)
  }

  /** Packs every check in order, publishing each as soon as its bytes are in place. */
  packAll (checks: readonly SignatureCheck[]): void {
    const { control, lens, offsets, data } = this.#at
    const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength)
    checks.forEach((c, i) => {
      let pos = offsets[i] as number
      bytes.set(c.publicKey, pos); pos += c.publicKey.length
      bytes.set(c.message, pos); pos += c.message.length
      // hex decoded in place; Buffer stops at the first pair that is not hex, leaving zeros (fails)
      if (typeof c.signature === 'string') bytes.write(c.signature, pos, lens[3 * i + 2] as number, 'hex')
      else bytes.set(c.signature, pos)
      Atomics.store(control, PACKED, i + 1)
      Atomics.notify(control, PACKED)
    })
  }

  /** Tells waiting threads that no more checks will be packed. */
  abort (): void {
    Atomics.store(this.#at.control, ABORT, 1)
    Atomics.notify(this.#at.control, PACKED)
  }

  /** The packing thread's own share: claims packed checks until none is left (never waits). */
  pullPacked (verify: (check: SignatureCheck) => boolean): number {
    return pullChecks(this.#at, verify, undefined, false)
  }

  /** One result per check, in order; read once every thread has answered. */
  results (): boolean[] {
    const { results, count } = this.#at
    const out = new Array<boolean>(count)
    for (let i = 0; i < count; i++) out[i] = Atomics.load(results, i) === 1
    return out
  }
}

/**
 * A thread's side: claims checks until none is left, verifying each with `verify`; `between`
 * runs before each claim (the thread answers other jobs there, holding no check). Returns how
 * many checks this thread verified. An aborted job ends at the first check not packed.
 */
export function pullSharedChecks (buffer: SharedArrayBuffer, verify: (check: SignatureCheck) => boolean, between?: () => void): number {
  const control = new Int32Array(buffer, 0, 4)
  return pullChecks(layout(buffer, Atomics.load(control, COUNT)), verify, between, true)
}

function pullChecks (at: Layout, verify: (check: SignatureCheck) => boolean, between: (() => void) | undefined, wait: boolean): number {
  const { control } = at
  let done = 0
  for (;;) {
    between?.()
    const i = Atomics.add(control, NEXT, 1)
    if (i >= at.count) return done
    for (let packed = Atomics.load(control, PACKED); packed <= i; packed = Atomics.load(control, PACKED)) {
      if (!wait || Atomics.load(control, ABORT) !== 0) return done
      Atomics.wait(control, PACKED, packed, WAIT_SLICE_MS)
    }
    const pkLen = at.lens[3 * i] as number
    const msgLen = at.lens[3 * i + 1] as number
    const sigLen = at.lens[3 * i + 2] as number
    const start = at.offsets[i] as number
    const publicKey = at.data.subarray(start, start + pkLen)
    const message = at.data.subarray(start + pkLen, start + pkLen + msgLen)
    const signature = at.data.subarray(start + pkLen + msgLen, start + pkLen + msgLen + sigLen)
    if (verify({ publicKey, message, signature })) Atomics.store(at.results, i, 1)
    done++
  }
}
