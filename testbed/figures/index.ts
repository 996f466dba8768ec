// All the figures of a run, from its recording alone.
import type { Recording } from './recording.ts'
import { intervals, propagation, reorgs, staleRate } from './blocks.ts'
import type { IntervalFigures, PropagationFigures, ReorgFigures, StaleFigures } from './blocks.ts'
import { healTimes } from './convergence.ts'
import { txAccounting } from './txs.ts'
import type { TxFigures } from './txs.ts'
import { nodeFigures } from './nodes.ts'
import { rogueOutcomes } from './rogues.ts'
import type { RogueFigures } from './rogues.ts'
import type { NodeFigures } from './nodes.ts'
import { goalFigures } from './goals.ts'
import type { Goals } from './goals.ts'

export interface Figures {
  scenario: string
  durationSeconds: number
  finalHeight: number
  propagation: PropagationFigures
  stale: StaleFigures
  intervals: IntervalFigures
  reorgs: ReorgFigures
  heals: Array<{ at: number; ms: number | null }>
  txs: TxFigures
  nodes: NodeFigures[]
  rogues: RogueFigures[]
  crashes: number
  /** the links' thread's event-loop lag (every link delay is as exact as this), null before it was recorded */
  loopLagMs: NonNullable<Recording['loopLagMs']> | null
  /** issue 28's goals, each with its verdict */
  goals: Goals
}

export function computeFigures (rec: Recording): Figures {
  const iv = intervals(rec)
  const txs = txAccounting(rec)
  const nodes = nodeFigures(rec, iv.n + 1, txs.accepted)
  const prop = propagation(rec)
  return {
    scenario: rec.scenario,
    durationSeconds: (rec.end - rec.start) / 1000,
    finalHeight: rec.finalChain.at(-1)?.height ?? 0,
    propagation: prop,
    stale: staleRate(rec),
    intervals: iv,
    reorgs: reorgs(rec),
    heals: healTimes(rec),
    txs,
    nodes,
    rogues: rogueOutcomes(rec),
    crashes: nodes.reduce((s, n) => s + n.crashes.length, 0),
    loopLagMs: rec.loopLagMs ?? null,
    goals: goalFigures(rec, prop)
  }
}
