// Black box, as an auditor runs it: a `ledger run --network devnet` node mines offline on its
// devnet beacon; `ledger verify --node URL` re-checks its chain over the public HTTP API and
// exits 0. A copy of the node's data dir with one stored envelope altered, served by a second
// (non-mining) node, makes `ledger verify` name the block and exit 1.
import t from 'tap'
import path from 'node:path'
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { cpSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { freePort, waitUntil } from '../plugins/p2p/fixtures/processes.ts'
import { tmpDir, cleanup } from '../helpers/chain.ts'
import { stopChild, exited } from '../helpers/process.ts'
import { RocksStore } from '../../plugins/storage/rocks-store.ts'
import { chainKey } from '../../core/chain/keys.ts'
import type { StoredBlockHead } from '../../core/chain/block-body.ts'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const NODE = path.join(ROOT, 'node_modules', '.bin', 'node')
const LEDGER = path.join(ROOT, 'bin', 'ledger.ts')

interface Running { base: string; child: ChildProcess; log: string[] }

async function startNode (t: { teardown (fn: () => unknown): void }, dataDir: string, mine: boolean): Promise<Running> {
  const [p2p, port, dashboard, entropy] = [await freePort(), await freePort(), await freePort(), await freePort()]
  const child = spawn(NODE, [LEDGER, 'run', '--network', 'devnet', '--data-dir', dataDir, '--p2p-port', String(p2p), '--port', String(port),
    '--dashboard-port', String(dashboard), '--entropy-port', String(entropy), mine ? '--mine' : '--no-mine'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  const log: string[] = []
  child.stdout!.setEncoding('utf8').on('data', (d: string) => log.push(d))
  child.stderr!.setEncoding('utf8').on('data', (d: string) => log.push(d))
  t.teardown(() => stopChild(child, 10_000))
  const base = `http://127.0.0.1:${port}`
  await waitUntil('the node to serve its public API', async () => {
    if (child.exitCode !== null) throw new Error(`node exited with ${child.exitCode}:\n${log.join('')}`)
    try { return (await fetch(`${base}/api/explorer/stats`, { signal: AbortSignal.timeout(3000) })).status === 200 } catch { return false }
  }, 60_000)
  return { base, child, log }
}

async function height (base: string): Promise<number> {
  return ((await (await fetch(`${base}/api/explorer/stats`, { signal: AbortSignal.timeout(3000) })).json()) as { height: number }).height
}

async function verify (base: string, ...extra: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(NODE, [LEDGER, 'verify', '--node', base, ...extra], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout!.setEncoding('utf8').on('data', (d: string) => { stdout += d })
  child.stderr!.setEncoding('utf8').on('data', (d: string) => { stderr += d })
  const killer = setTimeout(() => child.kill('SIGKILL'), 240_000)
  await exited(child)
  clearTimeout(killer)
  return { code: child.exitCode, stdout, stderr }
}

t.test('ledger verify passes on a live devnet and fails on a tampered copy', async (t) => {
  const dataDir = tmpDir('ledger-e2e-verify-')
  const copyDir = tmpDir('ledger-e2e-verify-copy-')
  t.teardown(() => { cleanup(dataDir); cleanup(copyDir) })
  const miner = await startNode(t, dataDir, true)
  await waitUntil('four mined blocks', async () => await height(miner.base) >= 4, 120_000)

  const ok = await verify(miner.base)
  t.equal(ok.code, 0, `verify exits 0 on an honest chain:\n${ok.stdout}${ok.stderr}`)
  t.match(ok.stdout, /^OK: blocks 1\.\.\d+ of devnet at http:\/\/127\.0\.0\.1:\d+: .*attestations hold; \d+ beacon rounds quoted/m)
  t.match(ok.stdout, / 0 block\(s\) without beacon evidence/, 'every devnet block carries beacon evidence')
  t.match(ok.stderr, /verified \d+\/\d+ blocks \(height \d+\), \d+ blocks\/s, 0 failing/, 'a progress line')
  const partial = await verify(miner.base, '--from', '2', '--to', '3', '--core', 'bls=noble,sha3=js')
  t.equal(partial.code, 0)
  t.match(partial.stdout, /OK: blocks 2\.\.3 of devnet/)
  const badCore = await verify(miner.base, '--core', 'bls=blst')
  t.equal(badCore.code, 2, 'an unknown core is a usage error')
  t.match(badCore.stderr, /unknown bls core "blst" \(valid: mcl, noble\)/)

  await stopChild(miner.child, 10_000)
  cpSync(dataDir, copyDir, { recursive: true })
  // one stored envelope altered: the beacon round block 2 quotes, one byte of its signature
  const db = await RocksStore.open(path.join(copyDir, 'chain'))
  const hash = db.getSync(chainKey.mainHash(2))!.toString('utf8')
  const head = JSON.parse(db.getSync(chainKey.block(hash))!.toString('utf8')) as StoredBlockHead
  const evidence = head.quantum_signature!.qrng_attestation.beacons[0]!
  evidence.signature = (evidence.signature.startsWith('a') ? 'b' : 'a') + evidence.signature.slice(1)
  await db.write([{ type: 'put', key: chainKey.block(hash), value: Buffer.from(JSON.stringify(head)) }])
  await db.close()

  const copy = await startNode(t, copyDir, false)
  const bad = await verify(copy.base)
  t.equal(bad.code, 1, `verify exits 1 on the tampered copy:\n${bad.stdout}`)
  t.match(bad.stdout, /^FAILED: blocks 1\.\.\d+ of devnet at .*: 1 of \d+ blocks do not hold/m)
  t.match(bad.stdout, /block 2: BLOCK_ERROR_BAD_HASH: hash is not SHA3-512 of the header/, 'the altered envelope no longer matches the header it was mined under')

  const unreachable = await verify('http://127.0.0.1:9')
  t.equal(unreachable.code, 2, 'a node that cannot be read is a usage error, not a verdict')
  t.match(unreachable.stderr, /ledger: cannot read/)
})
