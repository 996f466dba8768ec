// The stretches of a run when the network was not whole (a partition, a node down or starting,
// miners restarting): a block mined then cannot reach every node by gossip, so propagation is
// measured only on blocks mined outside them.
import type { Mark } from './recording.ts'

/** grace after a node (re)starts before it counts as whole again, ms */
export const RESTART_GRACE_MS = 15_000

export function faultWindows (marks: readonly Mark[], end: number): Array<[number, number]> {
  const out: Array<[number, number]> = []
  const sorted = [...marks].sort((a, b) => a.t - b.t)
  for (const [i, m] of sorted.entries()) {
    if (m.kind === 'partition') {
      const heal = sorted.slice(i + 1).find((x) => x.kind === 'heal')
      out.push([m.t, (heal?.t ?? end) + RESTART_GRACE_MS])
    } else if (m.kind === 'kill') {
      const back = sorted.slice(i + 1).find((x) => x.kind === 'restart' && x.nodes?.some((n) => m.nodes?.includes(n)) === true)
      out.push([m.t, (back?.t ?? end) + RESTART_GRACE_MS])
    } else if (m.kind === 'restart' || m.kind === 'mining' || m.kind === 'start') {
      out.push([m.t, m.t + RESTART_GRACE_MS])
    }
  }
  return out
}

export const inWindow = (t: number, windows: ReadonlyArray<[number, number]>): boolean => windows.some(([a, b]) => t >= a && t <= b)
