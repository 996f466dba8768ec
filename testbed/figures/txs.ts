// Transaction accounting: every transaction any node admitted ends, on the final chain,
// confirmed exactly once, or dropped with a reason its sender can see (a txRemoved that is not
// `confirmed`), or still pending somewhere; anything else was lost silently.
import type { Recording } from './recording.ts'
import { summarize } from './stats.ts'
import type { Summary } from './stats.ts'

export interface TxFigures {
  accepted: number
  confirmedOnce: number
  confirmedTwice: number
  dropped: number
  droppedReasons: Record<string, number>
  pending: number
  lost: number
  /** up to 20 of the lost ids, to look up in the nodes' logs */
  lostIds: string[]
  /** ms from the first admission anywhere to the header time of the block confirming it */
  confirmLatency: Summary
}

export function txAccounting (rec: Recording): TxFigures {
  const firstAdmitted = new Map<string, number>()
  const removed = new Map<string, Set<string>>()
  for (const n of rec.nodes) {
    for (const e of n.events) {
      if (e.type === 'tx_admitted' && (firstAdmitted.get(e.id) ?? Infinity) > e.t) firstAdmitted.set(e.id, e.t)
      if (e.type === 'tx_removed' && e.reason !== 'confirmed') removed.set(e.id, (removed.get(e.id) ?? new Set()).add(e.reason))
    }
  }
  const count = new Map<string, number>()
  const confirmedAt = new Map<string, number>()
  for (const b of rec.finalChain) {
    for (const id of b.txids) {
      count.set(id, (count.get(id) ?? 0) + 1)
      if (!confirmedAt.has(id)) confirmedAt.set(id, b.timestamp * 1000)
    }
  }
  const pending = new Set(rec.pending)
  const f: TxFigures = { accepted: firstAdmitted.size, confirmedOnce: 0, confirmedTwice: 0, dropped: 0, droppedReasons: {}, pending: 0, lost: 0, lostIds: [], confirmLatency: summarize([]) }
  const latency: number[] = []
  for (const [id, t] of firstAdmitted) {
    const c = count.get(id) ?? 0
    if (c === 1) {
      f.confirmedOnce++
      latency.push(Math.max(0, (confirmedAt.get(id) as number) - t))
    } else if (c > 1) f.confirmedTwice++
    else if (pending.has(id)) f.pending++
    else if (removed.has(id)) {
      f.dropped++
      for (const r of removed.get(id) as Set<string>) f.droppedReasons[r] = (f.droppedReasons[r] ?? 0) + 1
    } else {
      f.lost++
      if (f.lostIds.length < 20) f.lostIds.push(id)
    }
  }
  f.confirmLatency = summarize(latency)
  return f
}
