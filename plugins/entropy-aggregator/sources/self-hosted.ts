// The `self-hosted` source (SPEC 2.8): this machine's entropy. The kernel CSPRNG
// (node:crypto randomBytes, seeded by getrandom(2)) always; when a hardware RNG device is
// present and readable, each call also reads a fresh 64-byte seed from it and XORs in its
// SHAKE256 expansion, so the output is at least as unpredictable as the better of the two.
// Accepted by the testnet and devnet trust lists only (config/networks.ts).
import { randomBytes } from 'node:crypto'
import os from 'node:os'
import { shake256 } from '@noble/hashes/sha3.js'
import { HwrngReader } from './hwrng.ts'
import { xorInto } from '../mixer.ts'
import type { SourceResult, UpstreamSource } from './types.ts'

export const SELF_HOSTED_ID = 'self-hosted'

/** kernel: CSPRNG only; hwrng: the hardware device is required; auto: use it when it answers. */
export type SelfHostedDevice = 'auto' | 'kernel' | 'hwrng'

export interface SelfHostedOptions {
  device: SelfHostedDevice
  hwrngPath: string
  /** bound of one hardware seed read */
  hwrngTimeoutMs: number
}

const HWRNG_DOMAIN = new TextEncoder().encode('ledger-hwrng-v1')

export class SelfHostedSource implements UpstreamSource {
  readonly id = SELF_HOSTED_ID
  readonly #mode: SelfHostedDevice
  readonly #hwrng: HwrngReader | null
  /** auto mode: set once the device failed; the kernel CSPRNG then serves alone */
  #hwrngFailed: string | null = null

  constructor (o: SelfHostedOptions) {
    this.#mode = o.device
    this.#hwrng = o.device === 'kernel' ? null : new HwrngReader(o.hwrngPath, o.hwrngTimeoutMs)
  }

  get device (): string {
    const kernel = `${os.platform()} kernel CSPRNG`
    if (this.#hwrng === null || this.#hwrngFailed !== null) return kernel
    return `${kernel} + ${HwrngReader.deviceName() ?? this.#hwrng.path}`
  }

  /** why the hardware device is not used (auto mode), or null */
  get hwrngProblem (): string | null { return this.#hwrngFailed }

  async generate (numBytes: number): Promise<SourceResult> {
    const bytes = new Uint8Array(randomBytes(numBytes))
    if (this.#hwrng !== null && (this.#mode === 'hwrng' || this.#hwrngFailed === null)) {
      let seed: Uint8Array
      try {
        seed = await this.#hwrng.read()
      } catch (err) {
        if (this.#mode === 'hwrng') throw err
        this.#hwrngFailed = (err as Error).message
        return { bytes, source: this.id }
      }
      const input = new Uint8Array(HWRNG_DOMAIN.length + seed.length)
      input.set(HWRNG_DOMAIN)
      input.set(seed, HWRNG_DOMAIN.length)
      xorInto(bytes, shake256(input, { dkLen: numBytes }))
    }
    return { bytes, source: this.id }
  }

  async close (): Promise<void> { await this.#hwrng?.close() }
}
