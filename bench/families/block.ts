// block: time to validate and connect a block of 100 signed transfers through the chain's
// own path (Chain.processBlock: header, PoW, attestation, every signature, state, indexes,
// one RocksDB batch), against the bound set by the signatures alone:
// 100 / (cores × native verifies per second per core), measured in the same run.
import { generateWallet } from '../../core/chain/wallet.ts'
import type { Wallet } from '../../core/chain/wallet.ts'
import type { Block } from '../../core/chain/types.ts'
import { BlockSequence, benchParams, benchTmpDir, devAccount, openBenchChain, randomAddress, removeDir, transfer } from '../lib/chain-fixture.ts'
import { nativeVerifyContender } from './mldsa.ts'
import { summarize, pairedRatios } from '../lib/stats.ts'
import { goal } from '../lib/goals.ts'
import type { BenchContext, BenchFamily, BenchRow, FamilyReport, Stats } from '../lib/types.ts'

async function run (ctx: BenchContext): Promise<FamilyReport> {
  const started = performance.now()
  const txCount = ctx.quick ? 10 : 100
  const verifyMs = ctx.quick ? 20 : 300
  const params = benchParams()
  const dir = benchTmpDir('block')
  const bc = await openBenchChain(params, dir)
  try {
    const seq = new BlockSequence(params, randomAddress())
    const dev = devAccount()
    ctx.progress(`funding ${txCount} senders`)
    const senders: Wallet[] = Array.from({ length: txCount }, () => generateWallet())
    // senders of the "new keys" blocks: each block's 100 senders reveal their keys in it, so no
    // verifier has met them (the WASM ML-DSA core's key cache is cold for every check)
    const newcomers: Wallet[][] = Array.from({ length: ctx.runs }, () => Array.from({ length: txCount }, () => generateWallet()))
    const funded = [...senders, ...newcomers.flat()]
    for (let from = 0; from < funded.length; from += params.maxTxPerBlock) {
      const batch = funded.slice(from, from + params.maxTxPerBlock)
      await bc.chain.processBlock(seq.next(batch.map((w, i) => transfer(params, dev, w.address, 100, from + i, seq.nextTimestamp, from + i === 0))), 'test')
    }

    // every block of the run built up front, so only validation and connection are timed;
    // the warm-up's first block carries the senders' public keys (their first transactions).
    // A run connects `perRun` blocks in a row and counts their mean: one block's time alone
    // spread 1.14-1.56x the bound within one invocation (a GC, a RocksDB flush, a stolen core)
    const perRun = ctx.quick ? 1 : 5
    ctx.progress(`signing ${(ctx.runs + 1) * perRun * txCount} transfers for ${(ctx.runs + 1) * perRun} blocks`)
    const runs: Block[][] = []
    for (let k = 0, nonce = 0; k <= ctx.runs; k++) {
      const run: Block[] = []
      for (let b = 0; b < perRun; b++, nonce++) {
        const ts = seq.nextTimestamp
        run.push(seq.next(senders.map((w) => transfer(params, w, randomAddress(), 0.01, nonce, ts, nonce === 0))))
      }
      runs.push(run)
    }

    const coldBlocks = newcomers.map((ws) => {
      const ts = seq.nextTimestamp
      return seq.next(ws.map((w) => transfer(params, w, randomAddress(), 0.01, 0, ts, true)))
    })

    const verify = nativeVerifyContender(verifyMs)
    const connectMs: number[] = []
    const boundMs: number[] = []
    const verifyRates: number[] = []
    const memory = { rss: [] as number[], memtables: [] as number[], blockCache: [] as number[], tableReaders: [] as number[] }
    for (const [k, run] of runs.entries()) {
      ctx.progress(`${k === 0 ? 'warm-up' : `run ${k}/${ctx.runs}`}: native verify rate, then connect blocks ${run[0]!.height}-${run.at(-1)!.height} (${txCount} transfers each)`)
      const perCore = await verify()
      let total = 0
      for (const block of run) {
        const t0 = performance.now()
        const result = await bc.chain.processBlock(block, 'test')
        total += performance.now() - t0
        if (result.status !== 'connected') throw new Error(`bench block ${block.height} was ${result.status}, not connected`)
      }
      const elapsed = total / run.length
      if (k === 0) continue
      const mem = bc.db.memoryStats()
      memory.rss.push(process.memoryUsage().rss)
      memory.memtables.push(mem.memtables)
      memory.blockCache.push(mem.blockCache)
      memory.tableReaders.push(mem.tableReaders)
      connectMs.push(elapsed)
      verifyRates.push(perCore)
      boundMs.push(txCount / (ctx.cores * perCore) * 1000)
    }
    const coldMs: number[] = []
    for (const [k, block] of coldBlocks.entries()) {
      ctx.progress(`run ${k + 1}/${ctx.runs}: connect block ${block.height} (${txCount} transfers from senders new to the verifiers)`)
      const t0 = performance.now()
      const result = await bc.chain.processBlock(block, 'test')
      coldMs.push(performance.now() - t0)
      if (result.status !== 'connected') throw new Error(`bench block ${block.height} was ${result.status}, not connected`)
    }
    const rows: BenchRow[] = [
      { family: 'block' as const, name: `validate + connect a block of ${txCount} signed transfers`, unit: 'ms', stats: summarize(connectMs), note: `a run's mean over ${perRun} blocks in a row` },
      { family: 'block' as const, name: `same, ${txCount} senders new to the verifiers (each reveals its key in the block)`, unit: 'ms', stats: summarize(coldMs), note: 'reported, not gated: no key is in any verify thread\'s cache' },
      { family: 'block' as const, name: 'same, as transactions per second', unit: 'tx/s', stats: summarize(connectMs.map((ms) => txCount * 1000 / ms)) },
      { family: 'block' as const, name: 'anchor native ML-DSA-87 verify (1 core)', unit: 'ops/s', stats: summarize(verifyRates) },
      { family: 'block' as const, name: `anchor bound ${txCount} / (${ctx.cores} cores × verify/s)`, unit: 'ms', stats: summarize(boundMs) }
    ]
    // RocksDB's own account of its memory next to the process's RSS (issue 15)
    const mib = (key: keyof typeof memory): Stats => summarize(memory[key].map((bytes) => bytes / 2 ** 20))
    rows.push(
      { family: 'block', name: 'memory: bench process RSS after each connect', unit: 'MiB', stats: mib('rss'), note: 'reported, not gated' },
      { family: 'block', name: 'memory: RocksDB memtables (rocksdb.cur-size-all-mem-tables)', unit: 'MiB', stats: mib('memtables'), note: 'bounded by the memtable budget (plugins/storage/rocks-store.ts)' },
      { family: 'block', name: 'memory: RocksDB block cache (rocksdb.block-cache-usage)', unit: 'MiB', stats: mib('blockCache'), note: 'index and filter blocks included; bounded by the cache size' },
      { family: 'block', name: 'memory: RocksDB table readers (rocksdb.estimate-table-readers-mem)', unit: 'MiB', stats: mib('tableReaders'), note: 'outside the cache' }
    )
    const goals = [goal('block', 'connect time ≤ 1.5× the signature bound', pairedRatios(connectMs, boundMs), '<=', 1.5)]
    return { family: 'block', title: 'block connect', available: true, rows, goals, seconds: (performance.now() - started) / 1000 }
  } finally {
    await bc.close()
    removeDir(dir)
  }
}

export const blockFamily: BenchFamily = { name: 'block', title: 'block connect', run }
