// The node's lifecycle as an operator meets it: `npx ledger run` stopped by a signal to the
// npx process (what systemd, Docker and `kill` send) really stops the node; `ledger resync`
// refuses while the node runs and asks before it deletes; a failed start leaves no data dir.
import t from 'tap'
import net from 'node:net'
import path from 'node:path'
import { spawn } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { cleanup, tmpDir } from '../helpers/chain.ts'
import { exited, stopChild } from '../helpers/process.ts'
import { freePort, waitUntil } from '../plugins/p2p/fixtures/processes.ts'
import { ROOT, ledger, startCliNode } from './fixtures/cli-node.ts'

async function portClosed (port: number): Promise<boolean> {
  return await new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port })
    s.once('connect', () => { s.destroy(); resolve(false) })
    s.once('error', () => resolve(true))
  })
}

t.test('resync refuses while the node runs; SIGTERM to npx stops the node; then resync asks, and --yes deletes', async (t) => {
  const node = await startCliNode({ via: 'npx' })
  t.teardown(async () => { await node.stop(); cleanup(node.dataDir) })
  const chainDir = path.join(node.dataDir, 'chain')

  const refused = await ledger(['resync', '--data-dir', node.dataDir, '--yes'])
  t.equal(refused.code, 2)
  t.match(refused.stderr, /refusing: a running node holds/)
  t.ok(existsSync(chainDir), 'the live chain is untouched')
  t.equal((await node.get<{ node_running: boolean }>('/api/status')).node_running, true, 'the node still runs')

  // the signal goes to the npx process only, as `kill <pid>` sends it
  process.kill(node.child.pid as number, 'SIGTERM')
  await exited(node.child)
  await waitUntil('every port of the real node to close', async () =>
    (await Promise.all(Object.values(node.ports).map(portClosed))).every(Boolean), 20_000)

  const unconfirmed = await ledger(['resync', '--data-dir', node.dataDir])
  t.equal(unconfirmed.code, 2, 'no terminal and no --yes: refused')
  t.match(unconfirmed.stderr, /A node without peers loses its only copy of the chain/)
  t.match(unconfirmed.stderr, /Pass --yes/)
  t.ok(existsSync(chainDir))

  const done = await ledger(['resync', '--data-dir', node.dataDir, '--yes'])
  t.equal(done.code, 0, done.stderr)
  t.notOk(existsSync(chainDir), 'chain/ removed')
  t.ok(existsSync(path.join(node.dataDir, 'admin')), 'admin/ kept')
  t.ok(existsSync(path.join(node.dataDir, 'wallets')), 'wallets/ kept')
})

t.test('SIGHUP to npx (npm dies alone, its shell waits on) stops the node', async (t) => {
  const node = await startCliNode({ via: 'npx' })
  t.teardown(async () => { await node.stop(); cleanup(node.dataDir) })
  process.kill(node.child.pid as number, 'SIGHUP')
  await exited(node.child)
  await waitUntil('the dashboard port to close', async () => await portClosed(node.ports.dashboard), 20_000)
  await waitUntil('the p2p port to close', async () => await portClosed(node.ports.p2p), 20_000)
  t.pass('the real node stopped: its ports are closed')
})

t.test('Ctrl-C (SIGINT to the foreground process group of npx) stops the node', async (t) => {
  const node = await startCliNode({ via: 'npx', detached: true })
  t.teardown(async () => { await node.stop(); cleanup(node.dataDir) })
  process.kill(-(node.child.pid as number), 'SIGINT')
  await exited(node.child)
  await waitUntil('the dashboard port to close', async () => await portClosed(node.ports.dashboard), 20_000)
  t.match(node.output(), /"reason":"SIGINT"|reason: "SIGINT"/, 'the node itself got SIGINT and shut down')
})

t.test('SIGINT to the npx process alone (kill -INT, docker kill --signal=INT) stops the node; Ctrl-Z and fg do not', async (t) => {
  const node = await startCliNode({ via: 'npx' })
  t.teardown(async () => { await node.stop(); cleanup(node.dataDir) })
  const pid = Number(/"pid":(\d+)/.exec(node.output())?.[1])
  t.ok(pid > 0 && pid !== node.child.pid, 'the real node is its own process under npx')
  // stopped and continued (what Ctrl-Z and fg do): the shell between npm and the node wakes
  // up too, and that must not read as an interrupt
  process.kill(pid, 'SIGSTOP')
  await new Promise((resolve) => setTimeout(resolve, 800))
  process.kill(pid, 'SIGCONT')
  const height = async (): Promise<number> => (await node.get<{ chain_height: number }>('/api/status')).chain_height
  const before = await height()
  await waitUntil('the continued node to mine on', async () => (await height()) > before + 1, 30_000)
  t.equal(node.child.exitCode, null, 'still running after a stop and a continue')

  process.kill(node.child.pid as number, 'SIGINT')
  await exited(node.child)
  await waitUntil('every port of the real node to close', async () =>
    (await Promise.all(Object.values(node.ports).map(portClosed))).every(Boolean), 20_000)
  t.match(node.output(), /"reason":"SIGINT"|reason: "SIGINT"/, 'the node shut down for the interrupt')
})

t.test('SIGTERM to `npx ledger entropy` stops the aggregator', async (t) => {
  const port = await freePort()
  const child = spawn('npx', ['--no-install', 'ledger', 'entropy', '--port', String(port), '--network', 'testnet', '--source', 'self-hosted', '--min-quorum', '1'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout.setEncoding('utf8').on('data', (d: string) => { out += d })
  child.stderr.setEncoding('utf8').on('data', (d: string) => { out += d })
  t.teardown(async () => { await stopChild(child, 5000) })
  await waitUntil('the aggregator to answer', async () => {
    if (child.exitCode !== null) throw new Error(`exited: ${out}`)
    try { return (await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(2000) })).status === 200 } catch { return false }
  }, 40_000)
  process.kill(child.pid as number, 'SIGTERM')
  await exited(child)
  await waitUntil('the aggregator port to close', async () => await portClosed(port), 20_000)
  t.pass('the aggregator stopped')
})

t.test('a failed start (port in use) leaves no half-made data dir', async (t) => {
  const blocker = net.createServer()
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()))
  t.teardown(() => { blocker.close() })
  const taken = (blocker.address() as net.AddressInfo).port
  const parent = tmpDir('ledger-e2e-failstart-')
  t.teardown(() => cleanup(parent))
  const fresh = path.join(parent, 'node')
  const r = await ledger(['run', '--network', 'devnet', '--data-dir', fresh, '--port', String(await freePort()), '--dashboard-port', String(taken),
    '--entropy-port', String(await freePort()), '--p2p-port', String(await freePort())])
  t.not(r.code, 0)
  t.match(r.stderr, /cannot listen on 127\.0\.0\.1:\d+: address already in use/)
  t.notOk(existsSync(fresh), 'the data dir this start created is gone')

  // an existing data dir keeps what it had, and loses only what the failed start added
  const { mkdirSync, writeFileSync } = await import('node:fs')
  const existing = path.join(parent, 'existing')
  mkdirSync(existing)
  writeFileSync(path.join(existing, 'keep.txt'), 'mine')
  const again = await ledger(['run', '--network', 'devnet', '--data-dir', existing, '--port', String(await freePort()), '--dashboard-port', String(taken),
    '--entropy-port', String(await freePort()), '--p2p-port', String(await freePort())])
  t.not(again.code, 0)
  t.same(readdirSync(existing), ['keep.txt'])

  const badFlag = await ledger(['run', '--network', 'devnet', '--data-dir', fresh, '--port', '99999'])
  t.equal(badFlag.code, 2)
  t.notOk(existsSync(fresh), 'a bad flag creates nothing')
})
