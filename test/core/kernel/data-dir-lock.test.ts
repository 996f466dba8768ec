// One owner per data dir (issue 31 item 1): the lock file, stale takeover, and a failed
// start that removes only what it made. The two-process race is test/e2e/data-dir-race.test.ts.
import t from 'tap'
import path from 'node:path'
import { spawn, spawnSync } from 'node:child_process'
import { createInterface } from 'node:readline'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { DataDirInUse, LOCK_FILE, lockDataDir } from '../../../core/kernel/data-dir-lock.ts'
import { Kernel } from '../../../core/kernel/kernel.ts'
import { resolveConfig } from '../../../core/kernel/config.ts'
import { cleanup, silentLogger, testParams, tmpDir } from '../../helpers/chain.ts'
import { startTestNode } from '../../helpers/node.ts'

/** the pid of a process that has exited (a crashed owner) */
function deadPid (): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' })
  return Number(r.stdout)
}

t.test('the lock names its owner; a second taker is refused with pid and command', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const lock = lockDataDir(dir, 'ledger run')
  const owner = JSON.parse(readFileSync(path.join(dir, LOCK_FILE), 'utf8')) as { pid: number; command: string }
  t.equal(owner.pid, process.pid)
  t.equal(owner.command, 'ledger run')
  const err = t.throws(() => lockDataDir(dir, 'ledger resync')) as unknown
  t.type(err, DataDirInUse)
  t.match((err as Error).message, `data dir ${dir} is in use by another ledger process (pid ${process.pid}, 'ledger run', since `)
  t.same(readdirSync(dir), [LOCK_FILE], 'the refused taker leaves no file behind')
  lock.release()
  lock.release()
  t.notOk(existsSync(path.join(dir, LOCK_FILE)), 'released')
  lockDataDir(dir, 'ledger run').release()
  t.pass('taken again once released')
})

t.test('a lock left by a dead process, or one without a readable owner, is taken over', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const pid = deadPid()
  writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid, command: 'ledger run', since: 'then', hostname: hostname() }))
  const lock = lockDataDir(dir, 'ledger run')
  t.equal((JSON.parse(readFileSync(path.join(dir, LOCK_FILE), 'utf8')) as { pid: number }).pid, process.pid)
  lock.release()
  writeFileSync(path.join(dir, LOCK_FILE), '')
  lockDataDir(dir, 'ledger run').release()
  t.same(readdirSync(dir), [], 'nothing left: no lock, no stale copy')
})

t.test('processes racing for one stale lock: exactly one takes it, every round', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const taker = path.join(import.meta.dirname, 'fixtures', 'lock-taker.ts')
  for (let round = 0; round < 3; round++) {
    writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: deadPid(), command: 'ledger run', since: 'then', hostname: hostname() }))
    const children = Array.from({ length: 6 }, () => spawn(process.execPath, [taker, dir], { stdio: ['pipe', 'pipe', 'inherit'] }))
    const answers = await Promise.all(children.map(async (c) => await new Promise<string>((resolve) => {
      createInterface({ input: c.stdout }).once('line', resolve)
    })))
    t.equal(answers.filter((a) => a === 'taken').length, 1, `round ${round}: one owner`)
    t.ok(answers.filter((a) => a !== 'taken').every((a) => a.includes("'lock-taker'")), 'the others are told who holds it')
    await Promise.all(children.map(async (c) => { c.stdin.end(); if (c.exitCode === null) await new Promise((resolve) => c.once('exit', resolve)) }))
    t.same(readdirSync(dir), [], 'released, no stale copies left')
  }
})

t.test('a live owner on another host is never taken over; the message says how to clear it', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: deadPid(), command: 'ledger run', since: 'then', hostname: 'elsewhere.example' }))
  t.throws(() => lockDataDir(dir, 'ledger run'), { message: new RegExp(`pid \\d+, 'ledger run' on elsewhere\\.example, since then\\); .*if that host's node is gone, remove ${path.join(dir, LOCK_FILE).replace(/[.]/g, '\\.')}\\)$`) })
})

t.test('a pid that runs again after a restart (a container\'s pid 1) is not the owner', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  // this very pid, but a start time that is not ours: the owner was an earlier process with the same pid
  const probe = lockDataDir(dir, 'probe')
  const ours = (JSON.parse(readFileSync(path.join(dir, LOCK_FILE), 'utf8')) as { startTicks?: number }).startTicks
  probe.release()
  t.type(ours, 'number', 'the owner\'s start time is recorded (Linux)')
  writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: process.pid, command: 'ledger run', since: 'then', hostname: hostname(), startTicks: (ours as number) - 1 }))
  const lock = lockDataDir(dir, 'ledger run')
  t.equal((JSON.parse(readFileSync(path.join(dir, LOCK_FILE), 'utf8')) as { since: string }).since === 'then', false, 'taken over')
  lock.release()
})

t.test('removeCreated removes only what appeared while the lock was held; a dir it made goes with it', async (t) => {
  const parent = tmpDir()
  t.teardown(() => cleanup(parent))
  const dir = path.join(parent, 'existing')
  mkdirSync(dir)
  writeFileSync(path.join(dir, 'keep.txt'), 'mine')
  const lock = lockDataDir(dir, 'ledger run')
  mkdirSync(path.join(dir, 'chain'))
  writeFileSync(path.join(dir, 'node.key'), 'k')
  t.same(lock.removeCreated().map((p) => path.basename(p)).sort(), ['chain', 'node.key'])
  lock.release()
  t.same(readdirSync(dir), ['keep.txt'])

  const fresh = path.join(parent, 'fresh')
  mkdirSync(fresh)
  const made = lockDataDir(fresh, 'ledger run', true)
  writeFileSync(path.join(fresh, 'api_key.json'), '{}')
  made.removeCreated()
  made.release()
  t.notOk(existsSync(fresh), 'the dir this start made is gone')
})

t.test('a second kernel on a running node\'s data dir is refused and touches nothing', async (t) => {
  const first = await startTestNode({ plugins: ['storage', 'consensus'] })
  t.teardown(() => first.stop())
  const dataDir = first.kernel.config.dataDir
  const before = readdirSync(dataDir).sort()
  const config = resolveConfig({ network: 'devnet', logLevel: 'silent', dataDir, plugins: ['storage', 'consensus'] })
  const second = new Kernel(config, silentLogger, testParams())
  await t.rejects(second.boot(), { message: `data dir ${dataDir} is in use by another ledger process (pid ${process.pid}, 'ledger run'` })
  await second.stop()
  t.same(readdirSync(dataDir).sort(), before, 'the running node\'s files are all there')
  t.equal(first.resolve('chain').tip().height, 0, 'the running node still reads its chain')
})

t.test('a kernel whose start fails removes what it created and releases the dir', async (t) => {
  const parent = tmpDir()
  t.teardown(() => cleanup(parent))
  const dataDir = path.join(parent, 'node')
  const config = resolveConfig({ network: 'devnet', logLevel: 'silent', dataDir, plugins: ['storage', 'consensus', 'no-such-plugin'] })
  await t.rejects(new Kernel(config, silentLogger, testParams()).boot(), { message: /not found/ })
  const again = resolveConfig({ network: 'devnet', logLevel: 'silent', dataDir, plugins: ['storage', 'consensus'] })
  const k = new Kernel(again, silentLogger, testParams())
  await k.boot()
  await k.stop()
  t.ok(existsSync(path.join(dataDir, 'chain')), 'a later start owns the dir')
  t.notOk(existsSync(path.join(dataDir, LOCK_FILE)), 'a stopped kernel releases its lock')
})
