// A batch of independent items (a block's ML-DSA checks, the transactions its merkle leaves
// hash) laid out in one SharedArrayBuffer that the verify pool's threads all pull from. The
// main thread allocates it, posts it to every thread, then packs the items in order, publishing
// how many are ready every few items; each thread claims the next item with one atomic add and waits (bounded)
// only when it has caught up with the packing. Nobody hands out work, so a thread that shares
// its core with a busy main thread simply ends up with fewer items.
//
//   bytes 0-31   Int32 control words: NEXT (next item to claim), PACKED (items ready), COUNT,
//                ABORT (non-zero: the main thread gave up packing), FIELDS (byte strings per
//                item), RESULT_BYTES (per item), DONE (items finished)
//   then         Uint32 length of each field of each item
//   then         Uint32 offset of each item's bytes in the data area
//   then         RESULT_BYTES per item, written by whichever thread took it
//   then         the items' bytes, back to back

/** One field of an item: bytes, or lower-case hex text decoded as it is packed (text that is not hex leaves zeros) */
export type JobField = Uint8Array | string

const NEXT = 0
const PACKED = 1
const COUNT = 2
const ABORT = 3
const FIELDS = 4
const RESULT_BYTES = 5
const DONE = 6
const CONTROL_BYTES = 32
/** packed items are published this many at a time */
const PUBLISH_EVERY = 8
/** a waiting thread looks at ABORT this often (ms) even if nobody wakes it */
const WAIT_SLICE_MS = 50

/** What a thread does with one item: read its fields, write its result bytes. */
export type JobWork = (fields: Uint8Array[], result: Uint8Array) => void

const fieldLength = (f: JobField): number => typeof f === 'string' ? f.length >>> 1 : f.length

interface Layout { control: Int32Array; lens: Uint32Array; offsets: Uint32Array; results: Uint8Array; data: Uint8Array; count: number; fields: number; resultBytes: number }

function layout (buffer: SharedArrayBuffer): Layout {
  const control = new Int32Array(buffer, 0, CONTROL_BYTES / 4)
  const count = Atomics.load(control, COUNT)
  const fields = Atomics.load(control, FIELDS)
  const resultBytes = Atomics.load(control, RESULT_BYTES)
  const lensAt = CONTROL_BYTES
  const offsetsAt = lensAt + 4 * fields * count
  const resultsAt = offsetsAt + 4 * count
  const dataAt = resultsAt + resultBytes * count
  return {
    control,
    lens: new Uint32Array(buffer, lensAt, fields * count),
    offsets: new Uint32Array(buffer, offsetsAt, count),
    results: new Uint8Array(buffer, resultsAt, resultBytes * count),
    data: new Uint8Array(buffer, dataAt),
    count,
    fields,
    resultBytes
  }
}

/** The main thread's side: allocate, pack, read the results. */
export class SharedJob {
  readonly buffer: SharedArrayBuffer
  readonly #at: Layout

  private constructor (buffer: SharedArrayBuffer) {
    this.buffer = buffer
    this.#at = layout(buffer)
  }

  /**
   * Room for `items`, each of `fields` byte strings, with `resultBytes` of result each (their
   * sizes only: nothing is packed yet, so the threads may be sent the job at once). `spare`
   * may offer a buffer of at least the bytes asked, of an earlier job no thread touches any more
   * (a fresh SharedArrayBuffer of a block's size costs its zeroing and page faults, ~1 ms).
   */
  static allocate (items: ReadonlyArray<readonly JobField[]>, fields: number, resultBytes: number, spare?: (bytes: number) => SharedArrayBuffer | undefined): SharedJob {
    const count = items.length
    let total = 0
    for (const item of items) {
      if (item.length !== fields) throw new RangeError(`an item has ${item.length} fields, not ${fields}`)
      for (const f of item) total += fieldLength(f)
    }
    const bytes = CONTROL_BYTES + (4 * fields + 4 + resultBytes) * count + total
    const buffer = spare?.(bytes) ?? new SharedArrayBuffer(bytes)
    const control = new Int32Array(buffer, 0, CONTROL_BYTES / 4)
    control.fill(0) // a reused buffer's claims, progress and abort flag start over
    control[COUNT] = count
    control[FIELDS] = fields
    control[RESULT_BYTES] = resultBytes
    const job = new SharedJob(buffer)
    let pos = 0
    items.forEach((item, i) => {
      job.#at.offsets[i] = pos
      item.forEach((f, k) => {
        job.#at.lens[i * fields + k] = fieldLength(f)
        pos += fieldLength(f)
      })
    })
    return job
  }

  get count (): number { return this.#at.count }
  /** claims made so far (a thread waiting for an unpacked item has made one) */
  get claimed (): number { return Atomics.load(this.#at.control, NEXT) }

  /**
   * Packs every item in order, publishing them PUBLISH_EVERY at a time (and the last): a wake-up
   * per item cost a futex call each and woke a thread that had caught up for one item at a
   * time, taking the core from the packing thread (a syncing node's profile showed it).
   */
  packAll (items: ReadonlyArray<readonly JobField[]>): void {
    const { control, lens, offsets, data, fields } = this.#at
    const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength)
    items.forEach((item, i) => {
      let pos = offsets[i] as number
      item.forEach((f, k) => {
        const n = lens[i * fields + k] as number
        // hex decoded in place; Buffer stops at the first pair that is not hex, leaving zeros
        if (typeof f === 'string') bytes.write(f, pos, n, 'hex')
        else bytes.set(f, pos)
        pos += n
      })
      if ((i + 1) % PUBLISH_EVERY === 0 || i === items.length - 1) {
        Atomics.store(control, PACKED, i + 1)
        Atomics.notify(control, PACKED)
      }
    })
  }

  /** Tells waiting threads that no more items will be packed. */
  abort (): void {
    Atomics.store(this.#at.control, ABORT, 1)
    Atomics.notify(this.#at.control, PACKED)
  }

  /** The packing thread's own share: claims packed items until none is left (never waits). */
  pullPacked (work: JobWork): number {
    return pull(this.#at, work, undefined, false)
  }

  /** Item `i`'s result bytes (a view); read once every thread has answered. */
  result (i: number): Uint8Array {
    const { results, resultBytes, control } = this.#at
    // pairs with each thread's DONE increment after its writes: those writes are visible now
    Atomics.load(control, DONE)
    return results.subarray(i * resultBytes, (i + 1) * resultBytes)
  }
}

/**
 * A thread's side: claims items until none is left, doing `work` on each; `between` runs before
 * each claim (the thread answers other jobs there, holding no item). Returns how many items
 * this thread did. An aborted job ends at the first item not packed.
 */
export function pullSharedJob (buffer: SharedArrayBuffer, work: JobWork, between?: () => void): number {
  return pull(layout(buffer), work, between, true)
}

function pull (at: Layout, work: JobWork, between: (() => void) | undefined, wait: boolean): number {
  const { control, lens, offsets, results, data, fields, resultBytes } = at
  let done = 0
  for (;;) {
    between?.()
    const i = Atomics.add(control, NEXT, 1)
    if (i >= at.count) return done
    for (let packed = Atomics.load(control, PACKED); packed <= i; packed = Atomics.load(control, PACKED)) {
      if (!wait || Atomics.load(control, ABORT) !== 0) return done
      Atomics.wait(control, PACKED, packed, WAIT_SLICE_MS)
    }
    const views: Uint8Array[] = []
    let pos = offsets[i] as number
    for (let k = 0; k < fields; k++) {
      const n = lens[i * fields + k] as number
      views.push(data.subarray(pos, pos + n))
      pos += n
    }
    work(views, results.subarray(i * resultBytes, (i + 1) * resultBytes))
    // publishes the result bytes written above to whoever reads DONE (SharedJob.result)
    Atomics.add(control, DONE, 1)
    done++
  }
}
