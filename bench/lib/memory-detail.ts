// Where a process's RSS is (issue 15), from /proc/self/smaps and V8's and RocksDB's own
// accounts: bytes by part, for the memory probe. Linux only (empty elsewhere).
import { readFileSync } from 'node:fs'
import v8 from 'node:v8'
import type { RocksMemoryStats } from '../../plugins/storage/rocks-store.ts'

const V8_PAGE = 256 * 1024

/**
 * RSS by mapping kind: `file` (the node binary, shared libraries), `brk` (the main thread's
 * malloc heap), `v8Pages` (anonymous 256 KiB mappings: V8 heap pages of every isolate, main
 * thread and workers), `anonOther` (other anonymous mappings: other threads' malloc arenas,
 * thread stacks, large V8 objects, WebAssembly memories, big mmap'd mallocs).
 */
export function smapsParts (): Record<string, number> {
  const parts = { file: 0, brk: 0, v8Pages: 0, anonOther: 0 }
  let smaps: string
  try { smaps = readFileSync('/proc/self/smaps', 'utf8') } catch { return {} }
  let kind: keyof typeof parts = 'anonOther'
  for (const line of smaps.split('\n')) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ (\d+)\s*(.*)$/.exec(line)
    if (m !== null) {
      const name = m[4] ?? ''
      const size = parseInt(m[2] as string, 16) - parseInt(m[1] as string, 16)
      if (name === '[heap]') kind = 'brk'
      else if (name.startsWith('/')) kind = 'file'
      else if (name === '' && size === V8_PAGE) kind = 'v8Pages'
      else kind = 'anonOther'
      continue
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line)
    if (rss !== null) parts[kind] += Number(rss[1]) * 1024
  }
  return parts
}

/** the main thread's V8 spaces, committed bytes */
export function heapSpaces (): Record<string, number> {
  const out: Record<string, number> = {}
  for (const sp of v8.getHeapSpaceStatistics()) out[`v8.${sp.space_name}`] = sp.physical_space_size
  return out
}

export function rocksParts (prefix: string, r: RocksMemoryStats): Record<string, number> {
  return { [`${prefix}.memtables`]: r.memtables, [`${prefix}.blockCache`]: r.blockCache, [`${prefix}.tableReaders`]: r.tableReaders }
}
