// Rogue peers: did the node they attacked let them in, and how long until it dropped them.
import type { Recording } from './recording.ts'

export interface RogueFigures { node: number; label: string; admitted: boolean; droppedAfterMs: number | null }

export function rogueOutcomes (rec: Recording): RogueFigures[] {
  return rec.marks.filter((m) => m.kind === 'rogue' && m.peer !== undefined).map((m) => {
    const node = m.nodes?.[0] ?? -1
    const events = rec.nodes[node]?.events ?? []
    const admitted = events.some((e) => e.type === 'peer_connected' && e.peer === m.peer)
    const dropped = events.find((e) => e.type === 'peer_disconnected' && e.peer === m.peer && e.t >= m.t)
    return { node, label: m.label, admitted, droppedAfterMs: dropped === undefined ? null : dropped.t - m.t }
  })
}
