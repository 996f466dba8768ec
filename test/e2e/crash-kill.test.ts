// Kills a process that is committing blocks (SIGKILL at random moments, many cycles) and
// checks the chain reopens with a tip consistent with state: every block commit is one
// atomic RocksDB batch.
import t from 'tap'
import path from 'node:path'
import { spawn } from 'node:child_process'
import { openTestChain, testParams, tmpDir, cleanup } from '../helpers/chain.ts'
import { coinToBohm } from '../../core/chain/money.ts'
import { seededRandom } from '../helpers/random.ts'

const CHILD = path.join(import.meta.dirname, 'fixtures', 'commit-loop.ts')
const CYCLES = 8

function runAndKill (dir: string, afterBlocks: number, extraMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, dir], { stdio: ['ignore', 'pipe', 'pipe'] })
    let seen = 0
    let killing = false
    let err = ''
    const guard = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`child did not reach ${afterBlocks} blocks in 60 s (saw ${seen}): ${err}`)) }, 60_000)
    child.stderr.on('data', (d: Buffer) => { err += d.toString() })
    child.stdout.on('data', (d: Buffer) => {
      seen += d.toString().split('\n').filter((l) => l.length > 0).length
      // several lines may arrive in one chunk on a busy machine: at or past the count, once
      if (seen >= afterBlocks && !killing) { killing = true; setTimeout(() => child.kill('SIGKILL'), extraMs) }
    })
    child.on('exit', () => { clearTimeout(guard); resolve(seen) })
  })
}

t.test('SIGKILL during commits never corrupts the chain', async (t) => {
  const dir = tmpDir('ledger-crash-')
  t.teardown(() => cleanup(dir))
  let lastHeight = 0
  const random = seededRandom(20261124) // the extra milliseconds before each kill
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    await runAndKill(dir, 2 + (cycle % 3), Math.floor(random() * 40))
    const tc = await openTestChain(testParams(), dir)
    try {
      const tip = tc.chain.tip()
      t.ok(tip.height >= lastHeight, `cycle ${cycle}: tip ${tip.height} did not go back`)
      t.equal(tc.chain.hashAtHeight(tip.height), tip.hash, 'main index agrees with the tip')
      t.equal(tc.chain.hashAtHeight(tip.height + 1), undefined, 'nothing indexed above the tip')
      // state is exactly what the connected blocks say: supply equals the sum of balances
      let sum = 0n
      for await (const [, v] of tc.db.entries({ gte: 'acct:', lt: 'acct:\xff' })) sum += BigInt((JSON.parse(v.toString()) as { balance: string }).balance)
      t.equal(sum, tc.chain.totalSupply(), 'balances sum to the supply')
      t.equal(tc.chain.totalSupply(), coinToBohm(2_000_000) + coinToBohm(5) * BigInt(tip.height), 'supply = premine + subsidies of connected blocks')
      const block = await tc.chain.getBlockByHeight(tip.height)
      t.equal(block?.hash, tip.hash, 'tip block body stored')
      lastHeight = tip.height
    } finally {
      await tc.close()
    }
  }
  t.ok(lastHeight > CYCLES, 'the chain kept growing across kills')
})
