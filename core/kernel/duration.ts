// One way to print a time left (sync ETAs in the terminal status line and in p2p's sync line):
// `7s`, `3m12s`, `3h02m`, `?` when unknown. Rounded up: a countdown never says 0s while time is left.
export function formatDuration (seconds: number): string {
  if (!Number.isFinite(seconds)) return '?'
  const s = Math.max(0, Math.ceil(seconds))
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
}
