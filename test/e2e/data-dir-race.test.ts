// Issue 31, "Data loss": two `ledger run` on one fresh --data-dir at once. The losing start
// used to "clean up" what had appeared since it listed the dir: the winner's wallets/ (the
// miner's seed), node.key and live chain/ files. Now the loser is refused by the data dir's
// lock before it touches anything, exits non-zero naming the owner, and the survivor keeps
// every file, open and on disk.
import t from 'tap'
import path from 'node:path'
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { cleanup, tmpDir } from '../helpers/chain.ts'
import { stopChild } from '../helpers/process.ts'
import { waitFor } from '../helpers/wait.ts'
import { freePort } from '../plugins/p2p/fixtures/processes.ts'
import { LEDGER, NODE, ROOT } from './fixtures/cli-node.ts'

interface Runner { child: ChildProcess; dashboard: number; output: () => string }

async function run (dataDir: string): Promise<Runner> {
  const dashboard = await freePort()
  const args = ['run', '--network', 'devnet', '--data-dir', dataDir, '--port', String(await freePort()), '--dashboard-port', String(dashboard),
    '--entropy-port', String(await freePort()), '--p2p-port', String(await freePort()), '--log-format', 'json']
  const child = spawn(NODE, [LEDGER, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout?.setEncoding('utf8').on('data', (d: string) => { out += d })
  child.stderr?.setEncoding('utf8').on('data', (d: string) => { out += d })
  return { child, dashboard, output: () => out }
}

async function serves (r: Runner): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${r.dashboard}/api/status`, { signal: AbortSignal.timeout(2000) })).status === 200
  } catch { return false }
}

/** files under the data dir the process holds open that are deleted on disk */
function deletedOpenFiles (pid: number, dataDir: string): string[] {
  const fdDir = `/proc/${pid}/fd`
  if (!existsSync(fdDir)) return []
  const out: string[] = []
  for (const fd of readdirSync(fdDir)) {
    let target: string
    try { target = readlinkSync(path.join(fdDir, fd)) } catch { continue }
    if (target.startsWith(dataDir) && target.endsWith('(deleted)')) out.push(target)
  }
  return out
}

const RACES = 3

for (let race = 1; race <= RACES; race++) {
  t.test(`race ${race}: two starts on one fresh data dir; one runs with all its files, the other is refused`, async (t) => {
    const parent = tmpDir('ledger-e2e-race-')
    t.teardown(() => cleanup(parent))
    const dataDir = path.join(parent, 'node')
    const both = await Promise.all([run(dataDir), run(dataDir)])
    t.teardown(async () => { await Promise.all(both.map(async (r) => { await stopChild(r.child, 10_000) })) })

    await waitFor('one of the two to exit', () => both.some((r) => r.child.exitCode !== null), 60_000)
    const loser = both.find((r) => r.child.exitCode !== null) as Runner
    const survivor = both.find((r) => r !== loser) as Runner
    await waitFor('the survivor to serve', async () => {
      if (survivor.child.exitCode !== null) throw new Error(`the survivor exited too:\n${survivor.output()}`)
      return await serves(survivor)
    }, 60_000)

    t.not(loser.child.exitCode, 0, 'the refused start exits non-zero')
    t.match(loser.output(), `data dir ${dataDir} is in use by another ledger process (pid ${survivor.child.pid as number}, 'ledger run'`)

    const wallet = path.join(dataDir, 'wallets', 'node.json')
    t.ok(existsSync(wallet), 'the survivor\'s miner wallet is there')
    t.ok(existsSync(path.join(dataDir, 'node.key')), 'its peer key is there')
    t.ok(existsSync(path.join(dataDir, 'chain', 'CURRENT')), 'its chain is there')
    t.same(deletedOpenFiles(survivor.child.pid as number, dataDir), [], 'no file the survivor holds open was deleted')
    const mining = await (await fetch(`http://127.0.0.1:${survivor.dashboard}/api/mining`)).json() as { miner_address: string }
    t.match(readFileSync(wallet, 'utf8'), mining.miner_address, 'the wallet on disk is the one the survivor mines to')
  })
}
