// Persists the ban list (<dataDir>/p2p-bans.json) off the event loop's critical path: one
// writer at a time, bans made while it writes coalesce into one more write of the latest
// list, each write goes to a temp file renamed over the old one (a crash leaves the old list
// or the new one, never half of either). A write that fails (disk full, read-only dir, an
// unwritable temp file) is logged and tried again with the next change: bans then live in
// memory only, and a peer's garbage can never turn into a crash of the node.
import { existsSync, readFileSync } from 'node:fs'
import { rename, writeFile } from 'node:fs/promises'

export interface BanStoreOptions {
  file: string
  /** a write failed; called once per distinct error until a write succeeds again */
  onError?: (err: NodeJS.ErrnoException) => void
}

export class BanStore {
  readonly #o: BanStoreOptions
  #dirty = false
  #writing: Promise<void> | null = null
  #snapshot: () => unknown = () => []
  #lastError: string | null = null
  /** writes that reached the disk (for tests and metrics) */
  written = 0

  constructor (o: BanStoreOptions) { this.#o = o }

  /** What the file holds now (read once, at start; a damaged file reads as empty). */
  load (): unknown[] {
    const file = this.#o.file
    if (!existsSync(file)) return []
    try {
      const list: unknown = JSON.parse(readFileSync(file, 'utf8'))
      return Array.isArray(list) ? list : []
    } catch {
      return []
    }
  }

  /** Asks for `snapshot()` to be written; returns at once. */
  schedule (snapshot: () => unknown): void {
    this.#snapshot = snapshot
    this.#dirty = true
    this.#writing ??= this.#drain()
  }

  /** Resolves once every scheduled write has been tried. Never rejects. */
  async flush (): Promise<void> {
    while (this.#writing !== null) await this.#writing
  }

  async #drain (): Promise<void> {
    const tmp = `${this.#o.file}.tmp`
    while (this.#dirty) {
      this.#dirty = false
      try {
        await writeFile(tmp, JSON.stringify(this.#snapshot(), null, 1))
        await rename(tmp, this.#o.file)
        this.written++
        this.#lastError = null
      } catch (err) {
        const e = err as NodeJS.ErrnoException
        const key = `${e.code ?? ''} ${e.message}`
        if (key !== this.#lastError) this.#o.onError?.(e)
        this.#lastError = key
      }
    }
    // cleared in the same synchronous step as the last check of #dirty: a change scheduled
    // from here on starts a new writer
    this.#writing = null
  }
}
