// One scenario step, played on the running network (testbed/scenario/types.ts says what each
// does). A step that waits (a restart, a kill while syncing) delays the steps after it.
import type { NetworkParams } from '../../core/chain/params.ts'
import type { Step } from '../scenario/types.ts'
import type { ShaperThread } from '../shaper/shaper-thread.ts'
import { parseBandwidth } from '../shaper/schedule.ts'
import type { LinkSettings } from '../shaper/schedule.ts'
import type { TestbedNode } from '../node/node-process.ts'
import type { LoadGenerator } from './load.ts'
import { startRogue } from './rogue.ts'
import type { RogueRun } from './rogue.ts'
import type { Mark } from '../figures/recording.ts'
import type { ChainBlock } from '../events.ts'

export interface StepContext {
  params: NetworkParams
  nodes: readonly TestbedNode[]
  shaper: ShaperThread
  load: LoadGenerator
  rogues: Set<RogueRun>
  mark: (kind: Mark['kind'], label: string, nodes?: number[], peer?: string) => void
}

/** what each load wallet is funded with (coin) unless the step says */
const DEFAULT_FUND_COIN = 1

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

export function linkSettings (s: { latencyMs?: number; jitterMs?: number; bandwidth?: string | null }): Partial<LinkSettings> {
  const out: Partial<LinkSettings> = {}
  if (s.latencyMs !== undefined) out.latencyMs = s.latencyMs
  if (s.jitterMs !== undefined) out.jitterMs = s.jitterMs
  if (s.bandwidth !== undefined) out.bandwidthBps = s.bandwidth === null ? null : parseBandwidth(s.bandwidth)
  return out
}

export async function playStep (ctx: StepContext, step: Step): Promise<void> {
  const { params, shaper, load, rogues, mark } = ctx
  const node = (i: number): TestbedNode => ctx.nodes[i] as TestbedNode
  const at = `t=${step.at}s:`
  switch (step.do) {
    case 'load':
      if (step.wallets !== undefined) load.fund(step.wallets, step.fundCoin ?? DEFAULT_FUND_COIN)
      load.setRate(step.rate, step.mix, step.entry)
      mark('load', `${at} load ${step.rate} tx/s${step.entry === 'sticky' ? ' (each wallet to one node)' : ''}${step.wallets === undefined ? '' : ` (${step.wallets} more senders funded)`}`)
      break
    case 'partition': await shaper.partition(step.groups); mark('partition', `${at} partition ${step.groups.map((g) => `[${g.join(',')}]`).join(' | ')}`, step.groups.flat()); break
    case 'heal': await shaper.heal(); mark('heal', `${at} heal`); break
    case 'kill':
      if (step.whileSyncing === true) await untilSyncing(node(step.node))
      mark('kill', `${at} SIGKILL node ${step.node}${step.whileSyncing === true ? ' while it syncs' : ''}`, [step.node])
      await node(step.node).kill()
      break
    case 'restart': mark('restart', `${at} start node ${step.node}`, [step.node]); await node(step.node).start(120_000); break
    case 'mining':
      mark('mining', `${at} mining ${step.on ? 'on' : 'off'} on nodes ${step.nodes.join(',')}`, step.nodes)
      await Promise.all(step.nodes.map(async (i) => { await node(i).stop(); node(i).mine = step.on; await node(i).start(120_000) }))
      break
    case 'rogue': {
      const genesis = (await node(step.node).get<ChainBlock[]>('/chain?from=0&to=0'))[0]?.hash ?? ''
      const rogue = await startRogue(params, genesis, node(step.node).spec.ports.p2p, step.kind)
      rogues.add(rogue)
      mark('rogue', `${at} rogue peer ${rogue.peerId.slice(-8)} (${step.kind}) at node ${step.node} for ${step.seconds} s`, [step.node], rogue.peerId)
      setTimeout(() => { rogues.delete(rogue); rogue.stop().catch(() => {}) }, step.seconds * 1000).unref()
      break
    }
    case 'links': {
      const pairs = step.between?.map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`)
      await shaper.set((a, b) => pairs === undefined || pairs.includes(`${a}-${b}`), linkSettings(step))
      mark('links', `${at} links ${pairs?.join(' ') ?? 'all'} ${JSON.stringify(linkSettings(step))}`)
      break
    }
  }
}

/** waits (at most 60 s) until the node says it is syncing */
async function untilSyncing (n: TestbedNode): Promise<void> {
  const until = Date.now() + 60_000
  while (Date.now() < until) {
    if ((await n.state().catch(() => null))?.sync_state === 'syncing') return
    await sleep(100)
  }
  throw new Error(`node ${n.index} did not start syncing within 60 s`)
}
