// Builds goal verdicts from run-by-run ratios.
import type { FamilyName, GoalResult, Stats } from './types.ts'

export function goal (family: FamilyName, text: string, ratio: Stats, comparison: '>=' | '<=', threshold: number, note?: string): GoalResult {
  const met = comparison === '>=' ? ratio.median >= threshold : ratio.median <= threshold
  return { family, goal: text, ratio, comparison, threshold, met, ...(note === undefined ? {} : { note }) }
}

/** A goal that could not be evaluated in this run (missing code, a single core …). */
export function goalNotEvaluated (family: FamilyName, text: string, comparison: '>=' | '<=', threshold: number, note: string): GoalResult {
  return { family, goal: text, ratio: null, comparison, threshold, met: null, note }
}
