// Connect probe (issue 15): where a block connect's CPU goes, by thread. Connects N blocks of
// 100 signed transfers (the block family's blocks: the same 100 senders, new recipients) one
// at a time through Chain.processBlock, and prints each block's wall time and the CPU every
// thread of the process spent on it (from /proc/self/task: the chain's thread, the verify
// pool's workers, V8's GC helpers, RocksDB's background threads), then the mean per thread.
//
//   node bench/connect-probe.ts [--blocks 40] [--threads N] [--core mldsa=native,...] [--no-signatures] [--cpu-prof FILE]
//
// --no-signatures: every signature counts as already verified (as the mempool vouches for
//   one), so what is left is the connect's other work alone.
// --cpu-prof FILE: a V8 CPU profile of the chain's thread over the timed connects only.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { Session } from 'node:inspector/promises'
import { generateWallet } from '../core/chain/wallet.ts'
import type { Block } from '../core/chain/types.ts'
import { RocksStore } from '../plugins/storage/rocks-store.ts'
import { Chain } from '../plugins/consensus/chain.ts'
import { createHooks } from '../core/kernel/hooks.ts'
import { Cores, parseCoreFlag } from '../core/cores/cores.ts'
import { SignatureVerifyPool } from '../core/crypto/verify-pool.ts'
import { BlockSequence, benchParams, benchTmpDir, devAccount, randomAddress, removeDir, silentLogger, transfer } from './lib/chain-fixture.ts'
import { summarize } from './lib/stats.ts'

const { values } = parseArgs({
  options: {
    blocks: { type: 'string', default: '40' },
    threads: { type: 'string' },
    core: { type: 'string' },
    'no-signatures': { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' }
  }
})
const blockCount = Number(values.blocks)
if (!Number.isSafeInteger(blockCount) || blockCount < 1) throw new Error('--blocks must be a positive integer')
const TX_PER_BLOCK = 100
/** Linux clock ticks per second (/proc stat times are in these) */
const TICK_MS = 10

/** CPU (ms) each thread of this process has used so far, by "name#tid" */
function threadCpu (): Map<string, number> {
  const out = new Map<string, number>()
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      out.set(`${name}#${tid}`, (Number(fields[11]) + Number(fields[12])) * TICK_MS)
    } catch { /* the thread ended */ }
  }
  return out
}
/** a thread's kind: its name without the numbers that tell threads of one kind apart */
const kindOf = (thread: string): string => thread.replace(/#\d+$/, '').replace(/[\d-]+$/, '')

const params = benchParams()
const dir = benchTmpDir('connect-probe')
const db = await RocksStore.open(path.join(dir, 'chain'))
const cores = new Cores(values.core === undefined ? {} : parseCoreFlag(values.core))
const pool = values['no-signatures'] ? undefined : new SignatureVerifyPool({ core: cores.selection.mldsa, bls: cores.selection.bls, sha3: cores.selection.sha3, threads: values.threads === undefined ? undefined : Number(values.threads) })
const chain = new Chain({ db, params, hooks: createHooks(), logger: silentLogger, executor: null, cores, signatureVerifier: pool, isVerified: values['no-signatures'] ? () => true : undefined })
await chain.init()
try {
  const seq = new BlockSequence(params, randomAddress())
  const dev = devAccount()
  const senders = Array.from({ length: TX_PER_BLOCK }, () => generateWallet())
  await chain.processBlock(seq.next(senders.map((w, i) => transfer(params, dev, w.address, 100, i, seq.nextTimestamp, i === 0))), 'test')
  // a warm-up block (the senders reveal their keys), then the timed ones
  const blocks: Block[] = []
  for (let k = 0; k <= blockCount; k++) {
    const ts = seq.nextTimestamp
    blocks.push(seq.next(senders.map((w) => transfer(params, w, randomAddress(), 0.01, k, ts, k === 0))))
  }
  await chain.processBlock(blocks.shift() as Block, 'test')

  const session = new Session()
  if (values['cpu-prof'] !== undefined) {
    session.connect()
    await session.post('Profiler.enable')
    await session.post('Profiler.setSamplingInterval', { interval: 100 })
    await session.post('Profiler.start')
  }
  const wall: number[] = []
  const byKind = new Map<string, number>()
  for (const block of blocks) {
    await new Promise((resolve) => setTimeout(resolve, 20)) // background work of the last block settles
    const before = threadCpu()
    const t0 = performance.now()
    const result = await chain.processBlock(block, 'test')
    const ms = performance.now() - t0
    const after = threadCpu()
    if (result.status !== 'connected') throw new Error(`block ${block.height} was ${result.status}`)
    wall.push(ms)
    for (const [thread, cpu] of after) byKind.set(kindOf(thread), (byKind.get(kindOf(thread)) ?? 0) + cpu - (before.get(thread) ?? 0))
    console.log(`block ${block.height}: ${ms.toFixed(1)} ms`)
  }
  if (values['cpu-prof'] !== undefined) {
    const { profile } = await session.post('Profiler.stop')
    writeFileSync(values['cpu-prof'], JSON.stringify(profile))
    session.disconnect()
  }
  const s = summarize(wall)
  console.log(`\n${blockCount} blocks of ${TX_PER_BLOCK} transfers${values['no-signatures'] ? ' (signatures vouched for)' : ''}: wall min ${s.min.toFixed(1)} / median ${s.median.toFixed(1)} / max ${s.max.toFixed(1)} ms`)
  console.log(`CPU per block by thread (mean; /proc ticks of ${TICK_MS} ms summed over all blocks):`)
  let total = 0
  for (const [kind, cpu] of [...byKind].sort((a, b) => b[1] - a[1])) {
    if (cpu <= 0) continue
    total += cpu
    console.log(`  ${kind.padEnd(18)} ${(cpu / blockCount).toFixed(1)} ms`)
  }
  console.log(`  ${'all threads'.padEnd(18)} ${(total / blockCount).toFixed(1)} ms`)
} finally {
  await pool?.close()
  await db.close()
  removeDir(dir)
}
