// A start that fails (port in use, a bad config section, a plugin that throws) must leave the
// data dir as it found it: no admin credentials, API key, peer key or genesis-only chain that
// the next start would silently reuse. What existed before the start is never touched.
import { existsSync, readdirSync, rmSync } from 'node:fs'
import path from 'node:path'

export interface DataDirSnapshot {
  dir: string
  existed: boolean
  entries: ReadonlySet<string>
}

export function snapshotDataDir (dir: string): DataDirSnapshot {
  const existed = existsSync(dir)
  return { dir, existed, entries: new Set(existed ? readdirSync(dir) : []) }
}

/** removes what appeared in the data dir since the snapshot (the dir too, if it is new); returns the removed paths */
export function removeCreatedSince (s: DataDirSnapshot): string[] {
  if (!existsSync(s.dir)) return []
  if (!s.existed) {
    rmSync(s.dir, { recursive: true, force: true })
    return [s.dir]
  }
  const removed: string[] = []
  for (const name of readdirSync(s.dir)) {
    if (s.entries.has(name)) continue
    const p = path.join(s.dir, name)
    rmSync(p, { recursive: true, force: true })
    removed.push(p)
  }
  return removed
}
