// An upstream source served by another process over the SPEC 4.6 REST contract, e.g. a
// `ledger entropy --source self-hosted` on a machine with a hardware RNG. The id it stands for
// is configured (the registry decides what may be claimed), not taken from the remote.
import { EntropyRestClient } from '../rest-client.ts'
import type { SourceResult, UpstreamSource } from './types.ts'

export interface RestSourceOptions {
  id: string
  url: string
  timeoutMs: number
}

export class RestUpstreamSource implements UpstreamSource {
  readonly id: string
  readonly #client: EntropyRestClient
  #device: string

  constructor (o: RestSourceOptions) {
    this.id = o.id
    this.#client = new EntropyRestClient({ url: o.url, timeoutMs: o.timeoutMs })
    this.#device = `remote ${this.#client.base.origin}`
  }

  get device (): string { return this.#device }

  async generate (numBytes: number, signal?: AbortSignal): Promise<SourceResult> {
    const draw = await this.#client.bytes(numBytes, signal)
    // a remote that names itself must name the source it stands in for here
    if (draw.source !== null && draw.source !== this.id) throw new Error(`${this.#client.base.origin} serves '${draw.source}', configured as '${this.id}'`)
    if (draw.device !== null && draw.device.length > 0) this.#device = `${draw.device} at ${this.#client.base.origin}`
    return { bytes: draw.bytes, source: this.id }
  }
}
