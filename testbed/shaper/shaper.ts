// Every link of a test bed: one ShapedLink per pair of peered nodes, settable one by one, by
// group or all at once while the network runs, and the bytes each node sent over them. The
// links run on a thread of their own (shaper-thread.ts): this is what that thread holds.
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

  /** changes the links at `indexes` (in the order they were added) */
  setLinks (indexes: readonly number[], change: Partial<LinkSettings>): number {
    let n = 0
    for (const i of indexes) {
      const entry = this.#links[i]
      if (entry !== undefined) { entry.relay.set(change); n++ }
    }
    return n
  }

  view (): LinkView[] {
    return this.#links.map(({ link: [dialer, listener], relay, port }) => ({ dialer, listener, port, settings: relay.settings, ...relay.counters }))
  }

  async close (): Promise<void> { await Promise.all(this.#links.map(async ({ relay }) => { await relay.close() })) }
}

/** whether a link joins two different groups of a partition (a node in no group is its own group) */
export function crossesPartition (groups: readonly (readonly number[])[]): (a: number, b: number) => boolean {
  const groupOf = new Map<number, number>()
  groups.forEach((g, i) => { for (const node of g) groupOf.set(node, i) })
  const side = (v: number): string => groupOf.has(v) ? `g${groupOf.get(v)}` : `n${v}`
  return (a, b) => side(a) !== side(b)
}

/** bytes `node` sent over all its links */
export function bytesSentBy (views: readonly LinkView[], node: number): number {
  let sum = 0
  for (const v of views) {
    if (v.dialer === node) sum += v.forward
    if (v.listener === node) sum += v.backward
  }
  return sum
}
