// Issue 31, "Slow clients": 300 connections trickling a body to a real node were all still
// open after 185 s (its descriptors 49 → 359): Node's requestTimeout was off and nothing capped
// the sockets. Now the whole request must arrive within `http.limits.requestTimeoutMs` (short
// here, so the test is quick), and one address holds at most `maxConnectionsPerAddress`
// sockets. Asserted on the node's own descriptors (/proc/<pid>/fd) and on the clients' sockets.
import t from 'tap'
import type { Test } from 'tap'
import net from 'node:net'
import path from 'node:path'
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { readdirSync, writeFileSync } from 'node:fs'
import { cleanup, tmpDir } from '../helpers/chain.ts'
import { stopChild } from '../helpers/process.ts'
import { waitFor } from '../helpers/wait.ts'
import { freePort } from '../plugins/p2p/fixtures/processes.ts'
import { LEDGER, NODE, ROOT } from './fixtures/cli-node.ts'

const CLIENTS = 300

interface Node { child: ChildProcess; port: number; output: () => string }

async function startNode (t: Test, limits: Record<string, number>): Promise<Node> {
  const dir = tmpDir('ledger-e2e-loris-')
  t.teardown(() => cleanup(dir))
  const port = await freePort()
  const config = path.join(dir, 'ledger.config.mjs')
  writeFileSync(config, `export default ${JSON.stringify({ network: 'devnet', plugins: ['storage', 'consensus', 'http', 'explorer'], http: { port, limits } })}\n`)
  const child = spawn(NODE, [LEDGER, 'run', '--config', config, '--data-dir', path.join(dir, 'data'), '--log-level', 'warn'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout?.setEncoding('utf8').on('data', (d: string) => { out += d })
  child.stderr?.setEncoding('utf8').on('data', (d: string) => { out += d })
  t.teardown(async () => { await stopChild(child, 10_000) })
  await waitFor('the public server to answer', async () => {
    if (child.exitCode !== null) throw new Error(`the node exited:\n${out}`)
    try { return (await fetch(`http://127.0.0.1:${port}/api/explorer/stats`, { signal: AbortSignal.timeout(2000) })).status === 200 } catch { return false }
  }, 60_000)
  return { child, port, output: () => out }
}

function descriptors (pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length
}

interface Loris { socket: net.Socket; answer: string; closed: boolean }

/** a client that sends headers promising a body, then trickles it a byte every 200 ms */
function loris (port: number): Loris {
  const l: Loris = { socket: net.connect(port, '127.0.0.1'), answer: '', closed: false }
  const drip = setInterval(() => { if (!l.socket.destroyed) l.socket.write('a') }, 200)
  l.socket.on('connect', () => { l.socket.write('POST /api/explorer/stats HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n') })
  l.socket.setEncoding('utf8').on('data', (d: string) => { l.answer += d })
  l.socket.on('error', () => {})
  l.socket.on('close', () => { l.closed = true; clearInterval(drip) })
  return l
}

t.test(`${CLIENTS} trickling connections are closed by the request timeout; the node's descriptors drop back`, async (t) => {
  const node = await startNode(t, { headersTimeoutMs: 1000, requestTimeoutMs: 3000, maxConnectionsPerAddress: 10 * CLIENTS })
  const pid = node.child.pid as number
  const baseline = descriptors(pid)
  const clients = Array.from({ length: CLIENTS }, () => loris(node.port))
  t.teardown(() => { for (const c of clients) c.socket.destroy() })
  await waitFor('the node to hold the trickling connections', () => descriptors(pid) >= baseline + CLIENTS * 0.9, 20_000)
  await waitFor('every trickling connection to be closed', () => clients.every((c) => c.closed), 30_000)
  t.equal(clients.filter((c) => c.answer.startsWith('HTTP/1.1 408 ')).length, CLIENTS, 'each was told 408 before it was closed')
  await waitFor('the node\'s descriptors to drop back', () => descriptors(pid) <= baseline + 5, 10_000)
  t.ok((await fetch(`http://127.0.0.1:${node.port}/api/explorer/stats`)).ok, 'the node serves as before')
})

t.test(`${CLIENTS} connections from one address: at most the per-address cap is held`, async (t) => {
  const cap = 64
  const node = await startNode(t, { headersTimeoutMs: 60_000, requestTimeoutMs: 60_000, maxConnectionsPerAddress: cap })
  const pid = node.child.pid as number
  const baseline = descriptors(pid)
  const clients = Array.from({ length: CLIENTS }, () => loris(node.port))
  t.teardown(() => { for (const c of clients) c.socket.destroy() })
  await waitFor('all but the capped connections to be closed', () => clients.filter((c) => c.closed).length >= CLIENTS - cap, 20_000)
  const held = clients.filter((c) => !c.closed).length
  // the readiness probe's keep-alive socket (same address) may still hold one slot
  t.ok(held <= cap && held >= cap - 1, `the node holds the cap's worth of them (${held} of ${cap})`)
  t.ok(clients.filter((c) => c.closed).every((c) => c.answer === ''), 'closed unanswered')
  t.ok(descriptors(pid) <= baseline + cap + 5, `the node holds at most ${cap} more descriptors`)
})
