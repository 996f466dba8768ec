// The runner's handle on the links: the Shaper runs on a worker thread (shaper-worker.ts) so
// that link delays are timed by an event loop nothing else uses. Requests are numbered and
// answered in any order; which links a change applies to is decided here, by their two nodes.
import { Worker } from 'node:worker_threads'
import { bytesSentBy, crossesPartition } from './shaper.ts'
import type { LinkView } from './shaper.ts'
import type { LinkSettings } from './schedule.ts'
import type { Link } from '../topology.ts'

export type ShaperRequest = { id: number } & (
  | { op: 'add'; link: Link; listenerPort: number; seed: number; settings: Partial<LinkSettings> }
  | { op: 'set'; indexes: number[]; change: Partial<LinkSettings> }
  | { op: 'view' }
  | { op: 'lag' }
  | { op: 'resetLag' }
  | { op: 'close' }
)
export type ShaperReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string }

/** how late the links' thread ran its timers (ms) */
export interface LinkLag { p50: number; p99: number; max: number }

type Op = ShaperRequest extends infer R ? R extends { op: infer O } ? O : never : never
type Args<O extends Op> = Omit<Extract<ShaperRequest, { op: O }>, 'id' | 'op'>

export class ShaperThread {
  readonly #worker: Worker
  readonly #links: Link[] = []
  readonly #waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  #nextId = 1
  #failure: Error | null = null

  constructor () {
    this.#worker = new Worker(new URL('./shaper-worker.ts', import.meta.url))
    this.#worker.on('message', (reply: ShaperReply) => {
      const w = this.#waiting.get(reply.id)
      this.#waiting.delete(reply.id)
      if (reply.ok) w?.resolve(reply.value)
      else w?.reject(new Error(`shaper: ${reply.error}`))
    })
    const fail = (err: Error): void => {
      this.#failure = err
      for (const w of this.#waiting.values()) w.reject(err)
      this.#waiting.clear()
    }
    this.#worker.on('error', fail)
    this.#worker.on('exit', (code) => { fail(new Error(`shaper thread exited (code ${code})`)) })
  }

  async #call<O extends Op> (op: O, args: Args<O>): Promise<unknown> {
    if (this.#failure !== null) throw this.#failure
    const id = this.#nextId++
    const { promise, resolve, reject } = Promise.withResolvers<unknown>()
    this.#waiting.set(id, { resolve, reject })
    this.#worker.postMessage({ id, op, ...args })
    return await promise
  }

  /** a relay for `link` to the listener's p2p port, its jitter drawn from `seed`; resolves with the port the dialer dials */
  async add (link: Link, listenerPort: number, seed: number, settings: Partial<LinkSettings>): Promise<number> {
    const port = await this.#call('add', { link, listenerPort, seed, settings }) as number
    this.#links.push(link)
    return port
  }

  /** sets every link `where` picks (by its two nodes); resolves with how many */
  async set (where: (a: number, b: number) => boolean, change: Partial<LinkSettings>): Promise<number> {
    const indexes = this.#links.flatMap(([a, b], i) => where(a, b) ? [i] : [])
    return await this.#call('set', { indexes, change }) as number
  }

  /** cuts every link between different groups (a node in no group is its own group) */
  async partition (groups: readonly (readonly number[])[]): Promise<number> { return await this.set(crossesPartition(groups), { cut: true }) }

  async heal (): Promise<number> { return await this.set(() => true, { cut: false }) }

  async view (): Promise<LinkView[]> { return await this.#call('view', {}) as LinkView[] }

  /** bytes `node` sent over all its links */
  async bytesSent (node: number): Promise<number> { return bytesSentBy(await this.view(), node) }

  /** how late the links' thread ran its timers since it started, or since `resetLag` */
  async lag (): Promise<LinkLag> { return await this.#call('lag', {}) as LinkLag }

  /** starts the lag figure again (the run's clock starts: the nodes' boot is not the run) */
  async resetLag (): Promise<void> { await this.#call('resetLag', {}) }

  /** closes every link and ends the thread */
  async close (): Promise<void> {
    if (this.#failure === null) await this.#call('close', {}).catch(() => {})
    await this.#worker.terminate()
  }
}
