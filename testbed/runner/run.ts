// Runs a scenario: builds the network (nodes, relays), plays the steps at their times, lets the
// network settle, gathers the recording and computes the figures. Everything it made (processes,
// data dirs) is removed however it ends; the report and the nodes' logs stay in `outDir`.
import os from 'node:os'
import path from 'node:path'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { shake256 } from '@noble/hashes/sha3.js'
import { NETWORKS } from '../../config/networks.ts'
import { walletFromSeed } from '../../core/chain/wallet.ts'
import type { Wallet } from '../../core/chain/wallet.ts'
import { writeWalletFile } from '../../core/kernel/wallet-file.ts'
import type { Scenario } from '../scenario/types.ts'
import { links, parseTopology } from '../topology.ts'
import { ShaperThread } from '../shaper/shaper-thread.ts'
import { bytesSentBy } from '../shaper/shaper.ts'
import { freePort } from '../node/ports.ts'
import { TestbedNode } from '../node/node-process.ts'
import { Collector } from './collector.ts'
import { LoadGenerator } from './load.ts'
import type { LoadStats } from './load.ts'
import { seededRandom } from './random.ts'
import { onAnyExit } from './cleanup.ts'
import type { RogueRun } from './rogue.ts'
import { linkSettings, playStep } from './steps.ts'
import type { StepContext } from './steps.ts'
import type { Mark, Recording } from '../figures/recording.ts'
import type { ChainBlock } from '../events.ts'

export interface RunOptions {
  scenario: Scenario
  outDir: string
  /** keep the nodes' data dirs (their path is printed) */
  keep: boolean
  log: (line: string) => void
}

export interface RunResult { recording: Recording; load: LoadStats; dataRoot: string }

const POLL_MS = 2000

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

function minerWallet (seed: number, index: number): Wallet {
  return walletFromSeed(shake256(Buffer.from(`ledger testbed ${seed} miner ${index}`), { dkLen: 32 }))
}

/** the load's own senders (a `load` step's `wallets`), funded by the miners' wallets */
function loadWallet (seed: number, index: number): Wallet {
  return walletFromSeed(shake256(Buffer.from(`ledger testbed ${seed} load ${index}`), { dkLen: 32 }))
}

export async function runScenario (o: RunOptions): Promise<RunResult> {
  const s = o.scenario
  const params = NETWORKS[s.network]
  const random = seededRandom(s.seed)
  const dataRoot = mkdtempSync(path.join(os.tmpdir(), 'ledger-testbed-'))
  mkdirSync(path.join(o.outDir, 'logs'), { recursive: true })
  const shaper = new ShaperThread()
  const nodes: TestbedNode[] = []
  const rogues = new Set<RogueRun>()
  const load = new LoadGenerator(params.chainId, nodes, Array.from({ length: s.miners }, (_, i) => minerWallet(s.seed, i)), random, (i) => loadWallet(s.seed, i))
  let cleaned = false
  const cleanupNow = (): void => {
    if (cleaned) return
    cleaned = true
    for (const n of nodes) n.killNow()
    if (!o.keep) rmSync(dataRoot, { recursive: true, force: true })
  }
  const removeExitHook = onAnyExit(cleanupNow)
  try {
    const topology = links(parseTopology(s.topology), s.nodes, random)
    const ports = []
    for (let i = 0; i < s.nodes; i++) ports.push({ http: await freePort(), p2p: await freePort(), entropy: await freePort(), probe: await freePort() })
    const peersOf: string[][] = Array.from({ length: s.nodes }, () => [])
    const base = linkSettings({ latencyMs: s.latencyMs, jitterMs: s.jitterMs, bandwidth: s.bandwidth })
    for (const [a, b] of topology) {
      const relayPort = await shaper.add([a, b], ports[b]?.p2p as number, Math.floor(random() * 2 ** 32), base)
      peersOf[a]?.push(`127.0.0.1:${relayPort}`)
    }
    for (let i = 0; i < s.nodes; i++) {
      const dataDir = path.join(dataRoot, `node${i}`)
      mkdirSync(dataDir, { mode: 0o700 })
      const mine = i < s.miners
      if (mine) writeWalletFile(path.join(dataDir, 'wallets', 'node.json'), minerWallet(s.seed, i))
      nodes.push(new TestbedNode({ index: i, network: s.network, dataDir, logFile: path.join(o.outDir, 'logs', `node${i}.log`), ports: ports[i] as TestbedNode['spec']['ports'], peers: peersOf[i] ?? [], mine, mineDuty: s.mineDuty }))
    }
    o.log(`testbed: ${s.nodes} nodes (${s.miners} mining${s.mineDuty < 100 ? ` at duty ${s.mineDuty}%` : ''}), ${s.topology}, ${topology.length} links, ${s.latencyMs} ms ± ${s.jitterMs} ms; data in ${dataRoot}`)
    const marks: Mark[] = []
    const mark = (kind: Mark['kind'], label: string, nodeList?: number[], peer?: string): void => { marks.push({ t: Date.now(), kind, label, nodes: nodeList, peer }); o.log(`  ${label}`) }

    await Promise.all(nodes.filter((n) => !s.late.includes(n.index)).map(async (n) => { await n.start(120_000) }))
    // the run starts once every started node is peered with every started neighbour and all
    // are on one tip: what the miners made alone before that, and the reorgs that joined it,
    // are setup, not network (the figures count from here)
    const expected = (i: number): number => topology.filter(([a, b]) => (a === i || b === i) && !s.late.includes(a) && !s.late.includes(b)).length
    // (miners that tie for ever — devnet's paced blocks — start after 30 s of being peered)
    const readyBy = Date.now() + 120_000
    let peeredAt: number | null = null
    for (;;) {
      const states = await Promise.all(nodes.filter((n) => n.running).map(async (n) => ({ n, st: await n.state().catch(() => null) })))
      const peered = states.every(({ n, st }) => st !== null && st.peers.length >= expected(n.index))
      if (peered) peeredAt ??= Date.now()
      if (peered && (new Set(states.map(({ st }) => st?.hash)).size === 1 || Date.now() - (peeredAt ?? Date.now()) > 30_000)) break
      if (Date.now() > readyBy) throw new Error(`the nodes were not all peered on one tip within 120 s: ${states.map(({ n, st }) => `node ${n.index} ${st?.peers.length ?? '?'}/${expected(n.index)} peers, height ${st?.height ?? '?'}`).join('; ')}`)
      await sleep(250)
    }
    const collector = new Collector(nodes)
    await shaper.resetLag()
    const start = Date.now()
    mark('start', `t=0: ${nodes.filter((n) => n.running).length} nodes up`)
    const polling = { on: true }
    const poller = (async () => {
      while (polling.on) {
        await collector.poll()
        await load.checkDeploy().catch(() => {})
        await load.checkFunding().catch(() => {})
        await sleep(POLL_MS)
      }
    })()

    const ctx: StepContext = { params, nodes, shaper, load, rogues, mark }
    for (const step of s.steps) {
      const wait = start + step.at * 1000 - Date.now()
      if (wait > 0) await sleep(wait)
      await playStep(ctx, step)
    }
    const endOfSteps = start + s.durationSeconds * 1000
    if (endOfSteps > Date.now()) await sleep(endOfSteps - Date.now())
    load.stop()
    mark('end', `t=${s.durationSeconds}s: load stopped; settling (at most ${s.settleSeconds} s)`)
    // settled: one tip everywhere and every mempool empty (what was admitted is mined), or the
    // settle time is up (what is left is reported as pending)
    const settleUntil = Date.now() + s.settleSeconds * 1000
    for (;;) {
      const states = await Promise.all(nodes.filter((n) => n.running).map(async (n) => await n.state().catch(() => null)))
      if ((new Set(states.map((st) => st?.hash)).size === 1 && states.every((st) => st?.mempool === 0)) || Date.now() > settleUntil) break
      await sleep(500)
    }
    polling.on = false
    await poller
    await collector.poll()
    const end = Date.now()
    const finalChain = await bestChain(nodes)
    const pending = new Set<string>()
    const hashRates = new Map<number, number>()
    for (const n of nodes.filter((x) => x.running)) {
      for (const id of await n.get<string[]>('/pending').catch(() => [])) pending.add(id)
      hashRates.set(n.index, await n.state().then((st) => st.hash_rate, () => 0))
    }
    await Promise.all(nodes.map(async (n) => { await n.stop() }))
    const linkViews = await shaper.view()
    const recording: Recording = {
      scenario: s.name,
      targetSeconds: params.blockTimeTarget,
      latencyMs: s.latencyMs,
      start,
      end,
      nodes: nodes.map((n) => ({
        index: n.index,
        miner: n.mine,
        p2pPort: n.spec.ports.p2p,
        events: collector.events[n.index] ?? [],
        samples: collector.samples[n.index] ?? [],
        exits: n.exits.filter((e) => e.t >= start && e.t <= end),
        bytesSent: bytesSentBy(linkViews, n.index),
        hashRate: hashRates.get(n.index) ?? 0,
        hashes: collector.hashes[n.index] ?? [],
        compact: collector.compact(n.index),
        sent: collector.sent(n.index)
      })),
      links: topology.map(([a, b]) => [a, b]),
      marks,
      finalChain,
      pending: [...pending],
      loopLagMs: await shaper.lag()
    }
    return { recording, load: load.stats, dataRoot }
  } finally {
    load.stop()
    await Promise.all([...rogues].map(async (r) => { await r.stop().catch(() => {}) }))
    await Promise.all(nodes.map(async (n) => { await n.stop(5000) }))
    await shaper.close()
    removeExitHook()
    cleanupNow()
  }
}

/** the main chain, from genesis, of the running node with the most work */
async function bestChain (nodes: readonly TestbedNode[]): Promise<ChainBlock[]> {
  let best: TestbedNode | null = null
  let bestWork = -1n
  for (const n of nodes.filter((x) => x.running)) {
    const st = await n.state().catch(() => null)
    if (st !== null && BigInt(st.work) > bestWork) { best = n; bestWork = BigInt(st.work) }
  }
  if (best === null) return []
  const out: ChainBlock[] = []
  for (;;) {
    const page = await best.get<ChainBlock[]>(`/chain?from=${out.length}`)
    if (page.length === 0) return out
    out.push(...page)
  }
}
