// Tips over time: each node's height (the plot) and the time from a heal until every running
// node is on one tip.
import type { Recording } from './recording.ts'

export interface TipChange { t: number; node: number; hash: string; height: number }

/** every change of every node's tip, in time order */
export function tipChanges (rec: Recording): TipChange[] {
  const out: TipChange[] = []
  for (const n of rec.nodes) {
    for (const e of n.events) {
      if (e.type === 'block_connected') out.push({ t: e.t, node: n.index, hash: e.hash, height: e.height })
      // the parent becomes the tip until the reorg's next connect
      if (e.type === 'block_disconnected') out.push({ t: e.t, node: n.index, hash: `parent-of-${e.hash}`, height: e.height - 1 })
    }
  }
  return out.sort((a, b) => a.t - b.t)
}

/** ms from each heal to the first moment all nodes with a tip then agree; null when they never did */
export function healTimes (rec: Recording): Array<{ at: number; ms: number | null }> {
  const changes = tipChanges(rec)
  return rec.marks.filter((m) => m.kind === 'heal').map((heal) => {
    const tip = new Map<number, string>()
    let i = 0
    for (; i < changes.length && (changes[i] as TipChange).t <= heal.t; i++) tip.set((changes[i] as TipChange).node, (changes[i] as TipChange).hash)
    const agree = (): boolean => new Set(tip.values()).size === 1
    if (agree()) return { at: heal.t, ms: 0 }
    for (; i < changes.length; i++) {
      const c = changes[i] as TipChange
      tip.set(c.node, c.hash)
      if (agree()) return { at: heal.t, ms: c.t - heal.t }
    }
    return { at: heal.t, ms: null }
  })
}
