// Reads short seeds from a hardware RNG character device (/dev/hwrng on Linux). Such devices
// are slow (a virtio-rng gives ~10 KB/s), so only 64-byte seeds are read, never bulk output,
// and a read that does not finish in time marks the device unusable instead of stalling.
import { open } from 'node:fs/promises'
import type { FileHandle } from 'node:fs/promises'
import { readFileSync } from 'node:fs'

export const HWRNG_SEED_BYTES = 64

export class HwrngReader {
  readonly path: string
  readonly #timeoutMs: number
  #handle: FileHandle | null = null
  /** a read still in flight after its timeout: no second read is stacked on a stuck device */
  #stuck: Promise<unknown> | null = null

  constructor (path: string, timeoutMs: number) {
    this.path = path
    this.#timeoutMs = timeoutMs
  }

  /** The kernel's name for the active hardware RNG, when it says. */
  static deviceName (): string | null {
    try {
      const name = readFileSync('/sys/class/misc/hw_random/rng_current', 'utf8').trim()
      return name.length > 0 && name !== 'none' ? name : null
    } catch {
      return null
    }
  }

  async read (): Promise<Uint8Array> {
    if (this.#stuck !== null) throw new Error(`${this.path}: an earlier read has not returned`)
    this.#handle ??= await open(this.path, 'r')
    const buf = new Uint8Array(HWRNG_SEED_BYTES)
    const reading = this.#fill(this.#handle, buf)
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`${this.path}: no ${HWRNG_SEED_BYTES} bytes within ${this.#timeoutMs} ms`)), this.#timeoutMs)
    })
    try {
      await Promise.race([reading, timeout])
      return buf
    } catch (err) {
      this.#stuck = reading.catch(() => undefined).finally(() => { this.#stuck = null })
      throw err
    } finally {
      clearTimeout(timer)
    }
  }

  async #fill (handle: FileHandle, buf: Uint8Array): Promise<void> {
    let at = 0
    while (at < buf.length) {
      const { bytesRead } = await handle.read(buf, at, buf.length - at, null)
      if (bytesRead === 0) throw new Error(`${this.path}: end of file`)
      at += bytesRead
    }
  }

  async close (): Promise<void> {
    const h = this.#handle
    this.#handle = null
    await h?.close()
  }
}
