// Issue 29's first follower goal at CI size: bench/follow-crash-probe.ts with 60 random reorgs
// (depth 1-20) while the node process (chain + followers + a SQLite indexer that writes its
// cursor with its data) is SIGKILLed at seeded random moments and restarted on the same dirs.
// The probe compares the index with one recomputed from the final chain; this test also checks
// the index against the chain database itself: every best block's coinbase indexed once, no
// other block's, and each miner's balance the sum of its best-chain coinbases.
import t from 'tap'
import path from 'node:path'
import { spawn } from 'node:child_process'
import { DatabaseSync } from 'node:sqlite'
import type { Block } from '../../core/chain/types.ts'
import { coinToBohm } from '../../core/chain/money.ts'
import { openTestChain, testParams, tmpDir, cleanup } from '../helpers/chain.ts'

const PROBE = path.join(import.meta.dirname, '..', '..', 'bench', 'follow-crash-probe.ts')
const REORGS = 60

interface Figures { reorgs: number; height: number; blocks: number; rows: number; missed: number; duplicated: number; wrongBalances: number; kills: number; restarts: number }

function runProbe (dir: string): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const args = [PROBE, '--reorgs', String(REORGS), '--seed', '2029', '--kill-from', 'ready', '--kill-min-ms', '100', '--kill-max-ms', '1000', '--max-kills', '3', '--dir', dir, '--json']
    const probe = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    probe.stdout.on('data', (d: Buffer) => { out += d.toString() })
    probe.stderr.on('data', (d: Buffer) => { err += d.toString() })
    // the probe kills its node's process group when it gets SIGTERM
    const guard = setTimeout(() => { probe.kill('SIGTERM'); reject(new Error(`the probe did not finish in 150 s: ${err.slice(-2000)}`)) }, 150_000)
    probe.once('close', (code) => {
      clearTimeout(guard)
      const last = out.trim().split('\n').at(-1) ?? ''
      if (!last.startsWith('{')) { reject(new Error(`the probe exited ${code} without figures: ${err.slice(-4000)}`)); return }
      resolve(JSON.parse(last) as Figures)
    })
  })
}

t.test('SIGKILLs during random reorgs: the indexer ends exactly at the final chain', async (t) => {
  const dir = tmpDir('ledger-follow-crash-')
  t.teardown(() => cleanup(dir))
  const figures = await runProbe(dir)
  t.equal(figures.reorgs, REORGS)
  t.ok(figures.kills >= 1, `the node was SIGKILLed (${figures.kills} times) and restarted (${figures.restarts})`)
  t.same({ missed: figures.missed, duplicated: figures.duplicated, wrongBalances: figures.wrongBalances }, { missed: 0, duplicated: 0, wrongBalances: 0 }, `${figures.rows} rows compared by the probe`)

  // the index against the chain database, without the probe's code
  const tc = await openTestChain(testParams(), dir)
  const best: Block[] = []
  try {
    for (let h = 0; h <= tc.chain.tip().height; h++) best.push(await tc.chain.getBlockByHeight(h) as Block)
  } finally {
    await tc.close()
  }
  t.equal(best.length, figures.blocks)
  const index = new DatabaseSync(path.join(dir, 'index.sqlite'), { readOnly: true })
  t.teardown(() => { index.close() })
  const rows = index.prepare('SELECT tx_id, block_hash FROM transfers').all() as Array<{ tx_id: string; block_hash: string }>
  const expectedRows = best.flatMap((b) => b.transactions.map((tx) => `${b.hash}:${tx.transaction_id}`))
  t.same(rows.map((r) => `${r.block_hash}:${r.tx_id}`).sort(), expectedRows.sort(), 'each best-chain transfer indexed once, and nothing else')
  const minted = new Map<string, bigint>()
  for (const b of best) for (const tx of b.transactions) minted.set(tx.recipient, (minted.get(tx.recipient) ?? 0n) + coinToBohm(tx.amount))
  const balances = index.prepare('SELECT address, bohm FROM balances').all() as Array<{ address: string; bohm: string }>
  t.same(Object.fromEntries(balances.map((r) => [r.address, r.bohm])), Object.fromEntries([...minted].map(([a, v]) => [a, v.toString()])), 'balances: the best chain\'s coinbases and allocations')
  const cursor = index.prepare('SELECT height, hash FROM cursor').get() as { height: number; hash: string }
  t.same(cursor, { height: best.length - 1, hash: best.at(-1)?.hash }, 'the cursor is the tip')
})
