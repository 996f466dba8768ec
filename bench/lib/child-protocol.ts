// Messages between the bench and the node processes it starts (bench/lib/node-process.ts).
// Nodes under measurement run in their own process, so that the bench's own work (load
// generation, SSE clients, bookkeeping) neither shares their event loop nor their RSS.

export type ChildSpec =
  /** a node serving the chain in dataDir to peers */
  | { role: 'p2p-serve'; dataDir: string }
  /** a fresh node syncing from `peer` until its tip reaches `height`, then exiting; it reports
   *  its memory as its tip passes each of `memoryAt`; with `followerMs`, a chain follower
   *  (ctx.follow's service) that takes that long over each block follows it meanwhile */
  | { role: 'p2p-sync'; dataDir: string; peer: string; height: number; timeoutMs: number; memoryAt?: number[]; detail?: boolean; followerMs?: number }
  /** the sync family's anchor: a fresh node process (the node's flags, as the syncing node's)
   *  connecting the blocks in `blocksFile` (JSON) into a new chain in the empty `dataDir` (the
   *  caller's, kept) as a syncing node does, then exiting */
  | { role: 'connect'; blocksFile: string; dataDir: string }
  /** a node with the explorer on the public server */
  | { role: 'explorer'; dataDir: string }
  /** the anchor: a bare fastify route returning a constant */
  | { role: 'bare-fastify' }
  /** a node with the event stream, and one signed-in user whose session cookie it reports */
  | { role: 'stream'; dataDir: string }

/** bytes, after a full GC: `external` is memory outside the JS heap that V8 knows of (Buffers …);
 *  `heapTotal` what V8 holds for this thread's JS heap (young generation included), used or not */
export interface MemoryFigures {
  rss: number; heapUsed: number; heapTotal: number; external: number
  /** with `detail` (bench/memory-probe.ts sync): where the RSS is, bytes by part (see memory-detail.ts) */
  detail?: Record<string, number>
}

export type ChildMessage =
  | { type: 'ready'; port: number; cookie?: string }
  | { type: 'progress'; message: string }
  /** `cpuMs`: the process's CPU (user + system, every thread) from node start to the tip */
  | { type: 'synced'; seconds: number; firstBlockSeconds: number; height: number; memory: MemoryFigures; cpuMs: number; followed?: number }
  /** `cpuMs`: the process's CPU (user + system, every thread) while it connected */
  | { type: 'connected'; seconds: number; cpuMs: number }
  /** the process's CPU so far (user + system, every thread) */
  | { type: 'cpu'; cpuMs: number }
  | { type: 'memory'; memory: MemoryFigures }
  | { type: 'memory-at'; height: number; memory: MemoryFigures }
  | { type: 'error'; message: string }

export type ParentMessage =
  | { type: 'measure-memory' }
  | { type: 'measure-cpu' }
  | { type: 'stop' }
