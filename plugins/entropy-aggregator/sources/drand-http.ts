// drand's HTTP API (v1): GET {base}/{chainhash}/info and GET {base}/{chainhash}/public/{round|latest}.
// Several base URLs serve the same chain; they are tried in turn, the last one that answered
// first, all within one deadline, so an unreachable relay costs at most `timeoutMs` per call.

export interface DrandHttpOptions {
  urls: readonly string[]
  chainHash: string
  timeoutMs: number
}

export class DrandHttpError extends Error {
  override name = 'DrandHttpError'
}

export class DrandHttp {
  readonly #urls: string[]
  readonly #chainHash: string
  readonly #timeoutMs: number
  #preferred = 0

  constructor (o: DrandHttpOptions) {
    if (o.urls.length === 0) throw new Error('a drand beacon needs at least one base URL')
    this.#urls = o.urls.map((u) => u.replace(/\/+$/, ''))
    this.#chainHash = o.chainHash
    this.#timeoutMs = o.timeoutMs
  }

  info (signal?: AbortSignal): Promise<unknown> { return this.#getJson('info', signal) }

  beacon (round: number | 'latest', signal?: AbortSignal): Promise<unknown> { return this.#getJson(`public/${round}`, signal) }

  async #getJson (path: string, signal?: AbortSignal): Promise<unknown> {
    const deadline = AbortSignal.timeout(this.#timeoutMs)
    const combined = signal === undefined ? deadline : AbortSignal.any([deadline, signal])
    const failures: string[] = []
    for (let i = 0; i < this.#urls.length && !combined.aborted; i++) {
      const index = (this.#preferred + i) % this.#urls.length
      const base = this.#urls[index] as string
      try {
        const res = await fetch(`${base}/${this.#chainHash}/${path}`, { signal: combined, headers: { accept: 'application/json' } })
        if (!res.ok) { failures.push(`${base}: HTTP ${res.status}`); continue }
        const body: unknown = await res.json()
        this.#preferred = index
        return body
      } catch (err) {
        if (combined.aborted) break
        const cause = (err as { cause?: { code?: string } }).cause
        failures.push(`${base}: ${cause?.code ?? (err as Error).message}`)
      }
    }
    if (deadline.aborted) failures.push(`no answer within ${this.#timeoutMs} ms`)
    else if (signal?.aborted === true) failures.push('aborted')
    throw new DrandHttpError(`drand ${path}: ${failures.join('; ')}`)
  }
}
