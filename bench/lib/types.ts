// The shapes every bench family produces and the bench runner prints and writes as JSON.

export const FAMILY_NAMES = ['pow', 'sha3', 'mldsa', 'vm', 'block', 'sync', 'http', 'attest', 'cli'] as const
export type FamilyName = typeof FAMILY_NAMES[number]

/** min / median / max of the measured runs (warm-up excluded), plus the runs themselves. */
export interface Stats {
  min: number
  median: number
  max: number
  samples: number[]
}

export interface BenchRow {
  family: FamilyName
  name: string
  unit: string
  /** null when the row reports something that could not be measured (see note) */
  stats: Stats | null
  note?: string
}

/**
 * A goal is a ratio of two figures measured in the same run: the ratio is taken run by run
 * (both sides measured back to back), so machine noise hits both sides alike.
 */
export interface GoalResult {
  family: FamilyName
  goal: string
  /** per-run ratios; null when the goal could not be evaluated */
  ratio: Stats | null
  comparison: '>=' | '<='
  threshold: number
  /** decided on the median ratio; null when not evaluated */
  met: boolean | null
  note?: string
}

export interface FamilyReport {
  family: FamilyName
  title: string
  /** false when the code the family measures does not exist yet */
  available: boolean
  reason?: string
  rows: BenchRow[]
  goals: GoalResult[]
  seconds: number
}

export interface BenchContext {
  /** measured runs per figure (after one warm-up run) */
  runs: number
  /** tiny sizes: a smoke run whose numbers mean nothing */
  quick: boolean
  /** logical cores the machine offers */
  cores: number
  progress: (message: string) => void
}

export interface BenchFamily {
  name: FamilyName
  title: string
  run(ctx: BenchContext): Promise<FamilyReport>
}
