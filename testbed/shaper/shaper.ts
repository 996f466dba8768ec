// Every link of a test bed: one ShapedLink per pair of peered nodes, settable one by one, by
// group or all at once while the network runs, and the bytes each node sent over them.
import { ShapedLink } from './link.ts'
import type { LinkSettings } from './schedule.ts'
import type { Link } from '../topology.ts'

export interface LinkView { dialer: number; listener: number; port: number; settings: LinkSettings; forward: number; backward: number; connections: number }

export class Shaper {
  readonly #links: Array<{ link: Link; relay: ShapedLink; port: number }> = []

  /** a relay for `link` to the listener's p2p port; resolves with the port the dialer dials */
  async add (link: Link, listenerPort: number, random: () => number, settings: Partial<LinkSettings>): Promise<number> {
    const relay = new ShapedLink(listenerPort, random)
    relay.set(settings)
    const port = await relay.listen()
    this.#links.push({ link, relay, port })
    return port
  }

  /** sets every link `where` picks (by its two nodes) */
  set (where: (a: number, b: number) => boolean, change: Partial<LinkSettings>): number {
    let n = 0
    for (const { link: [a, b], relay } of this.#links) if (where(a, b)) { relay.set(change); n++ }
    return n
  }

  /** cuts every link between different groups (a node in no group is its own group) */
  partition (groups: readonly (readonly number[])[]): number {
    const groupOf = new Map<number, number>()
    groups.forEach((g, i) => { for (const node of g) groupOf.set(node, i) })
    const side = (v: number): string => groupOf.has(v) ? `g${groupOf.get(v)}` : `n${v}`
    return this.set((a, b) => side(a) !== side(b), { cut: true })
  }

  heal (): number { return this.set(() => true, { cut: false }) }

  /** bytes `node` sent over all its links */
  bytesSent (node: number): number {
    let sum = 0
    for (const { link: [a, b], relay } of this.#links) {
      if (a === node) sum += relay.counters.forward
      if (b === node) sum += relay.counters.backward
    }
    return sum
  }

  view (): LinkView[] {
    return this.#links.map(({ link: [dialer, listener], relay, port }) => ({ dialer, listener, port, settings: relay.settings, ...relay.counters }))
  }

  async close (): Promise<void> { await Promise.all(this.#links.map(async ({ relay }) => { await relay.close() })) }
}
