// One node of the test bed: `ledger run` of this checkout as its own process group, with its
// own data dir, ports and config (the standard chain plugins, the miner capped at one thread,
// p2p on 127.0.0.1 dialing only its links' relays, and the probe). Its output goes to a log
// file that survives restarts. Kill, stop and restart keep the data dir and the ports, so the
// relays in front of it keep working.
import path from 'node:path'
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { ProbeState } from '../events.ts'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const LEDGER = path.join(ROOT, 'bin', 'ledger.js')
const PROBE_PLUGIN = path.join(ROOT, 'testbed', 'probe')

export interface NodeSpec {
  index: number
  network: 'testnet' | 'devnet'
  dataDir: string
  logFile: string
  ports: { http: number; p2p: number; entropy: number; probe: number }
  /** host:port of the relays this node dials */
  peers: string[]
  mine: boolean
  /** the miner's duty, percent (ledger run --mine-duty) */
  mineDuty: number
}

export interface NodeExit { t: number; code: number | null; signal: string | null; expected: boolean }

export class TestbedNode {
  readonly exits: NodeExit[] = []
  #child: ChildProcess | null = null
  #expectingExit = false
  mine: boolean

  readonly spec: NodeSpec

  constructor (spec: NodeSpec) {
    this.spec = spec
    this.mine = spec.mine
  }

  get index (): number { return this.spec.index }
  get pid (): number | null { return this.#child?.pid ?? null }
  get running (): boolean { return this.#child !== null && this.#child.exitCode === null && this.#child.signalCode === null }

  #writeConfig (): string {
    const file = path.join(this.spec.dataDir, 'testbed.config.mjs')
    writeFileSync(file, `export default ${JSON.stringify({
      network: this.spec.network,
      plugins: ['storage', 'consensus', 'http', 'entropy-aggregator', 'miner', 'p2p', { path: PROBE_PLUGIN }],
      // one hashing thread per miner: k miners split the CPU evenly, so the hash-rate split is known
      // at a duty under 100 a fixed hash rate, whatever the other miners and the machine do: the
      // duty bounds the thread's CPU, and at nice 0 (not the miner's default 19) it gets that
      // CPU on a loaded machine instead of only what the other processes leave
      miner: { enabled: this.mine, threads: 1, duty: this.spec.mineDuty, ...(this.spec.mineDuty < 100 ? { niceness: 0 } : {}) },
      // short redials: a healed link or a restarted peer is dialed again within 2 s
      p2p: { host: '127.0.0.1', statusIntervalMs: 2000, redialIntervalMs: 500, redialMaxMs: 2000, progressIntervalMs: 1000 },
      'testbed-probe': { port: this.spec.ports.probe }
    }, null, 2)}\n`)
    return file
  }

  /** starts the process; resolves once its probe answers (bounded) */
  async start (timeoutMs = 60_000): Promise<void> {
    if (this.running) return
    mkdirSync(this.spec.dataDir, { recursive: true })
    const config = this.#writeConfig()
    const { http, p2p, entropy } = this.spec.ports
    const args = [LEDGER, 'run', '--network', this.spec.network, '--config', config, '--data-dir', this.spec.dataDir,
      '--port', String(http), '--p2p-port', String(p2p), '--entropy-port', String(entropy),
      '--log-format', 'json', '--status-interval', '0', ...this.spec.peers.flatMap((p) => ['--peer', p])]
    const log = openSync(this.spec.logFile, 'a')
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', log, log], detached: true })
    closeSync(log)
    this.#child = child
    this.#expectingExit = false
    child.once('exit', (code, signal) => {
      this.exits.push({ t: Date.now(), code, signal, expected: this.#expectingExit })
    })
    const until = Date.now() + timeoutMs
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`node ${this.index} exited (${child.exitCode ?? child.signalCode}) before it served; see ${this.spec.logFile}`)
      try { await this.state(); return } catch { /* not up yet */ }
      if (Date.now() > until) throw new Error(`node ${this.index} did not start within ${timeoutMs / 1000} s; see ${this.spec.logFile}`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }

  #signal (sig: NodeJS.Signals): void {
    const pid = this.#child?.pid
    if (pid === undefined || !this.running) return
    try { process.kill(-pid, sig) } catch { /* already gone */ }
  }

  #exited (): Promise<void> {
    const child = this.#child
    if (child === null || !this.running) return Promise.resolve()
    return new Promise((resolve) => child.once('exit', () => resolve()))
  }

  /** SIGKILL to the whole process group: a crash the node must recover from */
  async kill (): Promise<void> {
    this.#expectingExit = true
    const done = this.#exited()
    this.#signal('SIGKILL')
    await done
  }

  /** SIGTERM (a clean shutdown), SIGKILL after `graceMs` */
  async stop (graceMs = 10_000): Promise<void> {
    if (!this.running) return
    this.#expectingExit = true
    const done = this.#exited()
    this.#signal('SIGTERM')
    const hard = setTimeout(() => this.#signal('SIGKILL'), graceMs)
    await done
    clearTimeout(hard)
  }

  /** SIGKILL without waiting: the last resort of an exiting test bed */
  killNow (): void { this.#expectingExit = true; this.#signal('SIGKILL') }

  async #get<T> (url: string): Promise<T> {
    const res = await fetch(`http://127.0.0.1:${this.spec.ports.probe}${url}`, { signal: AbortSignal.timeout(10_000) })
    const body = await res.json() as T & { error?: string }
    if (res.status !== 200) throw new Error(`node ${this.index} ${url}: ${res.status} ${body.error ?? ''}`)
    return body
  }

  state (): Promise<ProbeState> { return this.#get<ProbeState>('/state') }
  get<T> (url: string): Promise<T> { return this.#get<T>(url) }

  async post (url: string, body: unknown): Promise<{ status: number; json: { id?: string; error?: string } }> {
    const res = await fetch(`http://127.0.0.1:${this.spec.ports.probe}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) })
    return { status: res.status, json: await res.json() as { id?: string; error?: string } }
  }
}
