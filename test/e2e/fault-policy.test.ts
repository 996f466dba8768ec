// Issue 31, "A crash on a full disk": a write done synchronously inside an unawaited promise
// failed, and with no unhandledRejection policy the node process died (and again after each
// restart). A plugin here does exactly that on request (writing a file over a directory, and
// a rejection coded ENOSPC); the node logs it and carries on serving. An uncaught exception
// (state unknown) stops it cleanly: exit code 1, its data dir released, a restart runs.
import t from 'tap'
import path from 'node:path'
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import type { Test } from 'tap'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { cleanup, tmpDir } from '../helpers/chain.ts'
import { exited, stopChild } from '../helpers/process.ts'
import { waitFor } from '../helpers/wait.ts'
import { freePort } from '../plugins/p2p/fixtures/processes.ts'
import { LEDGER, NODE, ROOT } from './fixtures/cli-node.ts'
import { LOCK_FILE } from '../../core/kernel/data-dir-lock.ts'

const PLUGIN = `export default {
  name: 'fault-trigger', description: 'test: errors nobody catches', apiVersion: '1.0', provides: [], needs: ['publicHttp'],
  async register (ctx) {
    const { writeFileSync } = await import('node:fs')
    const app = ctx.resolve('publicHttp')
    app.post('/fault/reject', async () => {
      // as the ban list was written: synchronously, from a promise nobody awaits
      void (async () => { writeFileSync(ctx.node.dataDir, 'not a file') })()
      void Promise.reject(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }))
      return { ok: true }
    })
    app.post('/fault/throw', async () => {
      setImmediate(() => { throw new TypeError('a broken invariant') })
      return { ok: true }
    })
  }
}
`

interface Node { child: ChildProcess; port: number; output: () => string }

async function start (t: Test, dir: string, pluginDir: string): Promise<Node> {
  const port = await freePort()
  const config = path.join(dir, 'ledger.config.mjs')
  writeFileSync(config, `export default ${JSON.stringify({ network: 'devnet', plugins: ['storage', 'consensus', 'http', 'explorer', { path: pluginDir }], http: { port } })}\n`)
  const child = spawn(NODE, [LEDGER, 'run', '--config', config, '--data-dir', path.join(dir, 'data'), '--log-format', 'json'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout?.setEncoding('utf8').on('data', (d: string) => { out += d })
  child.stderr?.setEncoding('utf8').on('data', (d: string) => { out += d })
  t.teardown(async () => { await stopChild(child, 10_000) })
  await waitFor('the node to serve', async () => await serves(port, child, () => out), 60_000)
  return { child, port, output: () => out }
}

async function serves (port: number, child: ChildProcess, out: () => string): Promise<boolean> {
  if (child.exitCode !== null) throw new Error(`the node exited with ${child.exitCode}:\n${out()}`)
  try { return (await fetch(`http://127.0.0.1:${port}/api/explorer/stats`, { signal: AbortSignal.timeout(2000) })).status === 200 } catch { return false }
}

const post = async (port: number, url: string): Promise<number> =>
  (await fetch(`http://127.0.0.1:${port}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status

t.test('unawaited failing writes are logged and the node carries on; an uncaught exception stops it cleanly', async (t) => {
  const dir = tmpDir('ledger-e2e-faults-')
  t.teardown(() => cleanup(dir))
  const pluginDir = path.join(dir, 'fault-trigger')
  mkdirSync(pluginDir)
  writeFileSync(path.join(pluginDir, 'package.json'), '{"type":"module"}\n')
  writeFileSync(path.join(pluginDir, 'manifest.ts'), PLUGIN)
  const node = await start(t, dir, pluginDir)

  for (let i = 0; i < 12; i++) t.equal(await post(node.port, '/fault/reject'), 200)
  // each request's rejections have run by the time the next answer is read; the node answers on
  t.equal(await serves(node.port, node.child, node.output), true, 'still serving after 24 unhandled rejections')
  t.equal(node.child.exitCode, null, 'still running')

  t.equal(await post(node.port, '/fault/throw'), 200)
  await exited(node.child)
  t.equal(node.child.exitCode, 1, 'stopped with exit code 1')
  t.notOk(existsSync(path.join(dir, 'data', LOCK_FILE)), 'the data dir was released: a clean stop')

  const again = await start(t, dir, pluginDir)
  t.equal(await serves(again.port, again.child, again.output), true, 'a restart on the same data dir runs')
})
