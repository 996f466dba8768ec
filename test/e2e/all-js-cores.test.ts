// Black box: `ledger run --network devnet --core sha3=js,pow=js,vm=js,mldsa=noble` mines on
// the JS twins alone, says which cores it runs, and `ledger verify --node` (on the default
// WASM/native cores) re-checks the blocks it mined. A bad --core value is one line, exit 2.
import t from 'tap'
import path from 'node:path'
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { freePort, waitUntil } from '../plugins/p2p/fixtures/processes.ts'
import { tmpDir, cleanup } from '../helpers/chain.ts'
import { stopChild, exited } from '../helpers/process.ts'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const NODE = path.join(ROOT, 'node_modules', '.bin', 'node')
const LEDGER = path.join(ROOT, 'bin', 'ledger.ts')
const ALL_JS = 'sha3=js,pow=js,vm=js,mldsa=noble,bls=noble'

async function run (args: string[], killAfterMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(NODE, [LEDGER, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout!.setEncoding('utf8').on('data', (d: string) => { stdout += d })
  child.stderr!.setEncoding('utf8').on('data', (d: string) => { stderr += d })
  const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs)
  await exited(child)
  clearTimeout(killer)
  return { code: child.exitCode, stdout, stderr }
}

async function height (base: string): Promise<number> {
  return ((await (await fetch(`${base}/api/explorer/stats`, { signal: AbortSignal.timeout(3000) })).json()) as { height: number }).height
}

t.test('a devnet node on all-JS cores mines blocks that validate', async (t) => {
  const dataDir = tmpDir('ledger-e2e-js-cores-')
  t.teardown(() => cleanup(dataDir))
  const [p2p, port, dashboard, entropy] = [await freePort(), await freePort(), await freePort(), await freePort()]
  const child: ChildProcess = spawn(NODE, [LEDGER, 'run', '--network', 'devnet', '--data-dir', dataDir, '--p2p-port', String(p2p), '--port', String(port),
    '--dashboard-port', String(dashboard), '--entropy-port', String(entropy), '--log-format', 'json', '--status-interval', '0', '--core', ALL_JS],
  { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  const log: string[] = []
  child.stdout!.setEncoding('utf8').on('data', (d: string) => log.push(d))
  child.stderr!.setEncoding('utf8').on('data', (d: string) => log.push(d))
  t.teardown(() => stopChild(child, 10_000))
  const base = `http://127.0.0.1:${port}`
  const alive = (): void => { if (child.exitCode !== null) throw new Error(`node exited with ${child.exitCode}:\n${log.join('')}`) }

  await waitUntil('three blocks mined on the JS cores', async () => {
    alive()
    try { return await height(base) >= 3 } catch { return false }
  }, 180_000)

  const lines = log.join('').split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>)
  t.ok(lines.some((l) => l.cores === ALL_JS), 'the kernel logs the cores it runs')
  t.ok(lines.some((l) => l.msg === 'miner starting' && l.core === 'js'), 'the miner searches nonces on the JS PoW core')
  t.ok(lines.filter((l) => l.msg === 'mined block').length >= 3, 'and mined the blocks itself')

  const verified = await run(['verify', '--node', base], 240_000)
  t.equal(verified.code, 0, `ledger verify (WASM and native cores) accepts every block:\n${verified.stdout}${verified.stderr}`)
  t.match(verified.stdout, /^OK: blocks 1\.\.\d+ of devnet/m)
})

t.test('a bad --core names the valid families or cores and exits 2', async (t) => {
  const dataDir = tmpDir('ledger-e2e-bad-core-')
  t.teardown(() => cleanup(dataDir))
  const family = await run(['run', '--network', 'devnet', '--data-dir', dataDir, '--core', 'gpu=fast'], 60_000)
  t.equal(family.code, 2)
  t.equal(family.stderr.trim(), 'ledger: --core: unknown core family "gpu" (valid: sha3, pow, vm, mldsa, bls); write --core family=name,...')
  const core = await run(['run', '--network', 'devnet', '--data-dir', dataDir, '--core', 'sha3=js,pow=cuda'], 60_000)
  t.equal(core.code, 2)
  t.equal(core.stderr.trim(), 'ledger: --core: unknown pow core "cuda" (valid: wasm, wasm-simd, wasm-scalar, js)')
})
