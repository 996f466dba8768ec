// Memory probe (issue 15): connects N blocks of T signed transfers into a fresh chain store,
// one block at a time through Chain.processBlock, and prints the process's memory every
// `--every` blocks: RSS and its anonymous/file parts, process.memoryUsage() after a full GC,
// and RocksDB's own properties. The blocks are built once into a fixture file (one JSON block
// a line) and read back one at a time, so the probe itself holds no chain in memory.
//
//   node --expose-gc bench/memory-probe.ts build --blocks 2000 --tx 20 --out chain-20x2000.jsonl
//   node --expose-gc bench/memory-probe.ts connect --fixture chain-20x2000.jsonl [--every 100] [--blocks N] [--keep DIR]
//   node bench/memory-probe.ts sync --chain DIR [--blocks 2000] [--every 250] [--runs 1]   (LEDGER_BENCH_NO_NODE_FLAGS=1: without bin/node-flags.js)
//
// `sync` measures what the sync family measures (issue 15), in more detail: a node serving the
// chain `connect --keep DIR` left in DIR, and a fresh node syncing it from that peer, each its
// own process started as the bench starts them (bench/lib/child.ts); the syncing node reports
// its memory every `--every` blocks, RSS split by part (bench/lib/memory-detail.ts).
import { closeSync, createWriteStream, openSync, readFileSync, readSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import v8 from 'node:v8'
import type { Block } from '../core/chain/types.ts'
import type { Wallet } from '../core/chain/wallet.ts'
import { generateWallet } from '../core/chain/wallet.ts'
import { BlockSequence, benchParams, benchTmpDir, devAccount, openBenchChain, randomAddress, removeDir, silentLogger, transfer } from './lib/chain-fixture.ts'
import type { BenchChain } from './lib/chain-fixture.ts'
import { RocksStore } from '../plugins/storage/rocks-store.ts'
import { Chain } from '../plugins/consensus/chain.ts'
import { createHooks } from '../core/kernel/hooks.ts'
import { Cores } from '../core/cores/cores.ts'
import { startChild } from './lib/child.ts'

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    blocks: { type: 'string' },
    tx: { type: 'string', default: '20' },
    out: { type: 'string' },
    fixture: { type: 'string' },
    every: { type: 'string', default: '100' },
    smaps: { type: 'string' },
    hold: { type: 'boolean', default: false },
    verify: { type: 'string', default: 'pool' },
    keep: { type: 'string' },
    chain: { type: 'string' },
    runs: { type: 'string', default: '1' }
  }
})

const MiB = 2 ** 20
const mib = (bytes: number): string => (bytes / MiB).toFixed(1)

/** kB figures of /proc/self/status (VmRSS, RssAnon, RssFile, ...) as bytes */
function procStatus (): Record<string, number> {
  const out: Record<string, number> = {}
  for (const line of readFileSync('/proc/self/status', 'utf8').split('\n')) {
    const m = /^(\w+):\s+(\d+) kB$/.exec(line)
    if (m !== null) out[m[1] as string] = Number(m[2]) * 1024
  }
  return out
}

/** the fixture's lines one at a time, read in 1 MiB chunks (a stream would run ahead of the connects and fill the heap) */
function * fixtureLines (file: string): Generator<string> {
  const fd = openSync(file, 'r')
  const chunk = Buffer.alloc(1 << 20)
  let pending = ''
  try {
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null)
      if (n === 0) break
      pending += chunk.toString('utf8', 0, n)
      let nl: number
      while ((nl = pending.indexOf('\n')) >= 0) {
        yield pending.slice(0, nl)
        pending = pending.slice(nl + 1)
      }
    }
    if (pending.length > 0) yield pending
  } finally {
    closeSync(fd)
  }
}

/** the bench's chain (verify pool on one thread per core), or one that verifies signatures inline */
async function openProbeChain (dir: string, verify: string | undefined): Promise<BenchChain> {
  if (verify === 'pool') return await openBenchChain(benchParams(), dir)
  if (verify !== 'inline') throw new Error('--verify is pool or inline')
  const db = await RocksStore.open(path.join(dir, 'chain'))
  const chain = new Chain({ db, params: benchParams(), hooks: createHooks(), logger: silentLogger, executor: null, cores: new Cores() })
  await chain.init()
  return { chain, db, async close () { await db.close() } }
}

/** kB of RSS in anonymous 256 KiB mappings: V8 heap pages, of every isolate (main thread and workers) */
function v8PagesRss (): number {
  let total = 0
  let inPage = false
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line)
    if (m !== null) {
      inPage = (m[3] ?? '') === '' && parseInt(m[2] as string, 16) - parseInt(m[1] as string, 16) === 256 * 1024
      continue
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line)
    if (rss !== null && inPage) total += Number(rss[1]) * 1024
  }
  return total
}

/** committed bytes per V8 space of this isolate */
function spaces (): string {
  const short: Record<string, string> = { new_space: 'new', old_space: 'old', code_space: 'code', large_object_space: 'lo', new_large_object_space: 'newlo', trusted_space: 'trusted' }
  return v8.getHeapSpaceStatistics()
    .filter((sp) => short[sp.space_name] !== undefined)
    .map((sp) => `${short[sp.space_name] as string}=${mib(sp.physical_space_size)}`).join(',')
}

async function build (): Promise<void> {
  const n = Number(values.blocks ?? 2000)
  const txPerBlock = Number(values.tx)
  const out = values.out ?? path.join(os.tmpdir(), `ledger-memory-${txPerBlock}x${n}.jsonl`)
  const params = benchParams()
  const seq = new BlockSequence(params, devAccount().address)
  // spaced as the network paces blocks (as the sync family's chains are), so the share of
  // blocks quoting a new beacon round (a BLS pairing to verify) is the network's own
  seq.step = params.blockTimeTarget
  const file = createWriteStream(out)
  const senders: Wallet[] = Array.from({ length: txPerBlock }, () => generateWallet())
  const ts1 = seq.nextTimestamp
  file.write(JSON.stringify(seq.next(senders.map((w, i) => transfer(params, devAccount(), w.address, 1000, i, ts1, i === 0)))) + '\n')
  for (let height = 2; height <= n; height++) {
    const ts = seq.nextTimestamp
    const nonce = height - 2
    const line = JSON.stringify(seq.next(senders.map((w) => transfer(params, w, randomAddress(), 0.01, nonce, ts, nonce === 0)))) + '\n'
    if (!file.write(line)) await new Promise<void>((resolve) => file.once('drain', () => { resolve() }))
    if (height % 100 === 0) process.stderr.write(`built ${height}/${n}\n`)
  }
  await new Promise((resolve) => file.end(resolve))
  process.stderr.write(`wrote ${out}\n`)
}

async function connect (): Promise<void> {
  const fixture = values.fixture
  if (fixture === undefined) throw new Error('connect needs --fixture FILE (made by `build`)')
  const limit = values.blocks === undefined ? Infinity : Number(values.blocks)
  const every = Number(values.every)
  const gc = (globalThis as { gc?: () => void }).gc
  if (gc === undefined) throw new Error('run with --expose-gc')
  // --keep DIR: the chain stays in DIR/chain (for a node to serve), else in a temp dir removed at the end
  const dir = values.keep ?? benchTmpDir('memory-probe')
  const bc = await openProbeChain(dir, values.verify)
  const report = (height: number): void => {
    gc()
    const m = process.memoryUsage()
    const s = procStatus()
    const r = bc.db.memoryStats()
    console.log([
      `h=${height}`,
      `rss=${mib(m.rss)}`, `anon=${mib(s.RssAnon ?? 0)}`, `file=${mib(s.RssFile ?? 0)}`,
      `heapTotal=${mib(m.heapTotal)}`, `heapUsed=${mib(m.heapUsed)}`, `external=${mib(m.external)}`, `arrayBuffers=${mib(m.arrayBuffers)}`,
      `v8pagesAllIsolates=${mib(v8PagesRss())}`, `spaces[${spaces()}]`,
      `memtables=${mib(r.memtables)}`, `blockCache=${mib(r.blockCache)}`, `tableReaders=${mib(r.tableReaders)}`
    ].join(' '))
  }
  report(0)
  let height = 0
  try {
    for (const line of fixtureLines(fixture)) {
      if (height >= limit) break
      const block = JSON.parse(line) as Block
      const result = await bc.chain.processBlock(block, 'test')
      if (result.status !== 'connected') throw new Error(`block ${block.height} was ${result.status}, not connected`)
      height = block.height
      if (height % every === 0) report(height)
    }
    if (values.hold) {
      // lets a debugger look at the process as it is (gdb -p PID), then `kill -USR2 PID`
      process.stderr.write(`holding: pid ${process.pid}; kill -USR2 ${process.pid} to go on\n`)
      const keepAlive = setInterval(() => {}, 1000)
      await new Promise<void>((resolve) => process.once('SIGUSR2', () => { resolve() }))
      clearInterval(keepAlive)
    }
    if (values.smaps !== undefined) writeFileSync(values.smaps, readFileSync('/proc/self/smaps'))
  } finally {
    await bc.close()
    if (values.keep === undefined) removeDir(dir)
  }
}

async function sync (): Promise<void> {
  const dir = values.chain
  if (dir === undefined) throw new Error('sync needs --chain DIR (made by `connect --keep DIR`)')
  const n = Number(values.blocks ?? 2000)
  const every = Number(values.every)
  const marks: number[] = []
  for (let h = every; h <= n; h += every) marks.push(h)
  const server = startChild({ role: 'p2p-serve', dataDir: dir })
  try {
    const peer = `127.0.0.1:${(await server.next('ready', 60_000)).port}`
    for (let run = 1; run <= Number(values.runs); run++) {
      const client = startChild({ role: 'p2p-sync', dataDir: benchTmpDir('memory-sync'), peer, height: n, timeoutMs: 1_800_000, memoryAt: marks, detail: true }, (m) => { process.stderr.write(`run ${run}: ${m}\n`) })
      try {
        for (let i = 0; i < marks.length; i++) {
          const { height, memory: m } = await client.next('memory-at', 1_810_000)
          const detail = Object.entries(m.detail ?? {}).map(([k, v]) => `${k}=${mib(v)}`)
          console.log([`run=${run}`, `h=${height}`, `rss=${mib(m.rss)}`, `heapTotal=${mib(m.heapTotal)}`, `heapUsed=${mib(m.heapUsed)}`, `external=${mib(m.external)}`, ...detail].join(' '))
        }
        const synced = await client.next('synced', 60_000)
        console.log(`run=${run} synced ${synced.height} blocks in ${synced.seconds.toFixed(1)} s (${Math.round(synced.height / synced.seconds)} blocks/s) rss=${mib(synced.memory.rss)}`)
      } finally {
        await client.stop()
      }
    }
  } finally {
    await server.stop()
  }
}

const command = positionals[0]
if (command === 'build') await build()
else if (command === 'connect') await connect()
else if (command === 'sync') await sync()
else throw new Error('usage: memory-probe.ts build|connect|sync [options]')
