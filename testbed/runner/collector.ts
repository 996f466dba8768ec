// Reads what the nodes recorded (their probes' GET /events, paged) and what the kernel says of
// their processes (/proc: resident memory and CPU time), every few seconds, so that a node
// killed mid-run has given up all but its last moments. A restarted node's probe starts its
// record again from zero; its counters (compact blocks, hashes) are added up over its restarts.
import { readFileSync } from 'node:fs'
import type { NodeEvent, ProbeSent, ProbeState } from '../events.ts'
import type { CompactRelayCounts, SentBytesSnapshot } from '../../core/kernel/services.ts'
import type { TestbedNode } from '../node/node-process.ts'
import type { HashSample } from '../figures/recording.ts'

export interface ProcessSample { t: number; rssBytes: number; cpuSeconds: number }

/** Linux clock ticks per second (USER_HZ), 100 on every mainstream kernel */
const TICKS = 100

export function readProc (pid: number): { rssBytes: number; cpuSeconds: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // fields after the command name (which may hold spaces) in parentheses
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const ticks = Number(rest[11]) + Number(rest[12])
    const rssKb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return { rssBytes: rssKb === null ? 0 : Number(rssKb[1]) * 1024, cpuSeconds: ticks / TICKS }
  } catch {
    return null
  }
}

export class Collector {
  readonly events: NodeEvent[][]
  readonly samples: ProcessSample[][]
  /** each node's hash count every poll, over all of its processes */
  readonly hashes: HashSample[][]
  /** CPU seconds of the node's earlier processes (a restart starts the count again) */
  readonly #cpuBefore: number[]
  readonly #lastCpu: number[]
  readonly #cursor: number[]
  readonly #pid: Array<number | null>
  /** compact-block counts of the node's earlier processes, and of its current one as last read */
  readonly #compactBefore: CompactRelayCounts[]
  readonly #lastCompact: CompactRelayCounts[]
  /** what the node's earlier processes counted they sent, and its current one as last read */
  readonly #sentBefore: SentBytesSnapshot[]
  readonly #lastSent: SentBytesSnapshot[]
  /** whether any of the node's processes answered /sent with counts */
  readonly #sentCounted: boolean[]
  /** hashes of the node's earlier processes, and of its current one as last read */
  readonly #hashesBefore: number[]
  readonly #lastHashes: number[]

  readonly nodes: readonly TestbedNode[]

  constructor (nodes: readonly TestbedNode[]) {
    this.nodes = nodes
    this.events = nodes.map(() => [])
    this.samples = nodes.map(() => [])
    this.hashes = nodes.map(() => [])
    this.#hashesBefore = nodes.map(() => 0)
    this.#lastHashes = nodes.map(() => 0)
    this.#cpuBefore = nodes.map(() => 0)
    this.#lastCpu = nodes.map(() => 0)
    this.#cursor = nodes.map(() => 0)
    this.#pid = nodes.map(() => null)
    this.#compactBefore = nodes.map(() => zeroCounts())
    this.#lastCompact = nodes.map(() => zeroCounts())
    this.#sentBefore = nodes.map(() => emptySent())
    this.#lastSent = nodes.map(() => emptySent())
    this.#sentCounted = nodes.map(() => false)
  }

  /** what the node counted it sent, over all of its processes (as last read); undefined when it never counted */
  sent (index: number): SentBytesSnapshot | undefined {
    if (this.#sentCounted[index] !== true) return undefined
    return addSent(this.#sentBefore[index] ?? emptySent(), this.#lastSent[index] ?? emptySent())
  }

  /** received compact blocks by how they were rebuilt, over all of the node's processes (as last read) */
  compact (index: number): CompactRelayCounts {
    return addCounts(this.#compactBefore[index] ?? zeroCounts(), this.#lastCompact[index] ?? zeroCounts())
  }

  async poll (): Promise<void> {
    await Promise.all(this.nodes.map(async (n) => { await this.#pollNode(n) }))
  }

  async #pollNode (n: TestbedNode): Promise<void> {
    const i = n.index
    if (n.pid !== this.#pid[i]) {
      // a new process: its probe's record starts at zero, its CPU count too
      this.#cursor[i] = 0
      this.#cpuBefore[i] = (this.#cpuBefore[i] ?? 0) + (this.#lastCpu[i] ?? 0)
      this.#lastCpu[i] = 0
      this.#compactBefore[i] = this.compact(i)
      this.#lastCompact[i] = zeroCounts()
      this.#sentBefore[i] = this.sent(i) ?? emptySent()
      this.#lastSent[i] = emptySent()
      this.#hashesBefore[i] = (this.#hashesBefore[i] ?? 0) + (this.#lastHashes[i] ?? 0)
      this.#lastHashes[i] = 0
      this.#pid[i] = n.pid
    }
    if (!n.running || n.pid === null) return
    const proc = readProc(n.pid)
    if (proc !== null) {
      this.#lastCpu[i] = proc.cpuSeconds
      this.samples[i]?.push({ t: Date.now(), rssBytes: proc.rssBytes, cpuSeconds: (this.#cpuBefore[i] ?? 0) + proc.cpuSeconds })
    }
    try {
      for (;;) {
        const page = await n.get<{ events: NodeEvent[]; next: number }>(`/events?since=${this.#cursor[i] ?? 0}`)
        this.events[i]?.push(...page.events)
        this.#cursor[i] = page.next
        if (page.events.length === 0 || page.events.length < 50_000) break
      }
      const state = await n.get<ProbeState>('/state')
      const counts = state.compact
      if (counts !== null && counts !== undefined) this.#lastCompact[i] = counts
      const sent = await n.get<ProbeSent>('/sent')
      if (sent !== null) { this.#lastSent[i] = latestSent(this.#lastSent[i] ?? emptySent(), sent); this.#sentCounted[i] = true }
      if (typeof state.hashes === 'number') {
        this.#lastHashes[i] = state.hashes
        this.hashes[i]?.push({ t: Date.now(), hashes: (this.#hashesBefore[i] ?? 0) + state.hashes })
      }
    } catch {
      // a node being killed or starting: the next poll reads what it missed (if it lives)
    }
  }
}

const zeroCounts = (): CompactRelayCounts => ({ rebuilt: 0, withRequest: 0, wholeBlock: 0 })

function addCounts (a: CompactRelayCounts, b: CompactRelayCounts): CompactRelayCounts {
  return { rebuilt: a.rebuilt + b.rebuilt, withRequest: a.withRequest + b.withRequest, wholeBlock: a.wholeBlock + b.wholeBlock }
}

const emptySent = (): SentBytesSnapshot => ({ protocols: {}, blocks: {} })

/** a process's counts only grow; blocks it no longer remembers (its bounded list) keep their last count */
function latestSent (before: SentBytesSnapshot, now: SentBytesSnapshot): SentBytesSnapshot {
  return { protocols: now.protocols, blocks: { ...before.blocks, ...now.blocks } }
}

/** a process's counts start at zero: the node's are the sum of its processes' */
function addSent (a: SentBytesSnapshot, b: SentBytesSnapshot): SentBytesSnapshot {
  const protocols = { ...a.protocols }
  for (const [k, v] of Object.entries(b.protocols) as Array<[keyof SentBytesSnapshot['protocols'], number]>) protocols[k] = (protocols[k] ?? 0) + v
  const blocks = { ...a.blocks }
  for (const [k, v] of Object.entries(b.blocks)) blocks[k] = (blocks[k] ?? 0) + v
  return { protocols, blocks }
}
