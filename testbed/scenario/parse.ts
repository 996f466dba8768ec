// Scenario files: JSON checked field by field, every mistake named with where it is, and the
// defaults filled in. The shipped ones are in testbed/scenarios/<name>.json.
import path from 'node:path'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Scenario, Step, TxKind } from './types.ts'
import { parseTopology } from '../topology.ts'
import { parseBandwidth } from '../shaper/schedule.ts'
import { MAX_DUTY, MIN_DUTY } from '../../core/pow/duty.ts'

export const SCENARIO_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'scenarios')
export const MAX_NODES = 12

export class ScenarioError extends Error {}

export const DEFAULT_SCENARIO: Omit<Scenario, 'name'> = {
  description: '',
  network: 'testnet',
  nodes: 6,
  miners: 3,
  mineDuty: 100,
  topology: 'ring',
  latencyMs: 50,
  jitterMs: 10,
  bandwidth: null,
  seed: 1,
  durationSeconds: 60,
  settleSeconds: 60,
  late: [],
  steps: []
}

type Json = Record<string, unknown>

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

function num (o: Json, key: string, where: string, min: number, max: number, fallback?: number): number {
  const v = o[key] ?? fallback
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) throw new ScenarioError(`${where}.${key} must be a number from ${min} to ${max}`)
  return v
}
const int = (o: Json, key: string, where: string, min: number, max: number, fallback?: number): number => {
  const v = num(o, key, where, min, max, fallback)
  if (!Number.isInteger(v)) throw new ScenarioError(`${where}.${key} must be an integer`)
  return v
}
function nodeList (v: unknown, where: string, nodes: number): number[] {
  if (!Array.isArray(v) || v.some((x) => !Number.isInteger(x) || (x as number) < 0 || (x as number) >= nodes)) throw new ScenarioError(`${where} must be a list of node indexes 0-${nodes - 1}`)
  return v as number[]
}
function only (o: Json, keys: readonly string[], where: string): void {
  for (const k of Object.keys(o)) if (!keys.includes(k)) throw new ScenarioError(`${where} has an unknown field '${k}'`)
}

function parseStep (raw: unknown, i: number, nodes: number): Step {
  const where = `steps[${i}]`
  if (!isObject(raw)) throw new ScenarioError(`${where} must be an object`)
  const at = num(raw, 'at', where, 0, 86_400)
  const node = (): number => int(raw, 'node', where, 0, nodes - 1)
  switch (raw.do) {
    case 'load': {
      only(raw, ['at', 'do', 'rate', 'mix', 'entry', 'wallets', 'fundCoin'], where)
      if (raw.entry !== undefined && raw.entry !== 'random' && raw.entry !== 'sticky') throw new ScenarioError(`${where}.entry must be random or sticky`)
      const mix = raw.mix ?? { transfer: 1 }
      if (!isObject(mix) || Object.entries(mix).some(([k, v]) => !['transfer', 'chat', 'call'].includes(k) || typeof v !== 'number' || v < 0)) throw new ScenarioError(`${where}.mix must map transfer, chat and call to non-negative weights`)
      const step: Step = { at, do: 'load', rate: num(raw, 'rate', where, 0, 1000), mix: mix as Partial<Record<TxKind, number>> }
      if (raw.entry !== undefined) step.entry = raw.entry
      if (raw.wallets !== undefined) step.wallets = int(raw, 'wallets', where, 1, 1000)
      if (raw.fundCoin !== undefined) step.fundCoin = num(raw, 'fundCoin', where, 0.001, 1000)
      return step
    }
    case 'partition': {
      only(raw, ['at', 'do', 'groups'], where)
      if (!Array.isArray(raw.groups) || raw.groups.length < 2) throw new ScenarioError(`${where}.groups must list at least two groups`)
      const groups = raw.groups.map((g, j) => nodeList(g, `${where}.groups[${j}]`, nodes))
      const all = groups.flat()
      if (new Set(all).size !== all.length) throw new ScenarioError(`${where}.groups name a node twice`)
      return { at, do: 'partition', groups }
    }
    case 'heal': only(raw, ['at', 'do'], where); return { at, do: 'heal' }
    case 'kill': {
      only(raw, ['at', 'do', 'node', 'whileSyncing'], where)
      if (raw.whileSyncing !== undefined && typeof raw.whileSyncing !== 'boolean') throw new ScenarioError(`${where}.whileSyncing must be true or false`)
      return raw.whileSyncing === true ? { at, do: 'kill', node: node(), whileSyncing: true } : { at, do: 'kill', node: node() }
    }
    case 'restart': only(raw, ['at', 'do', 'node'], where); return { at, do: 'restart', node: node() }
    case 'mining':
      only(raw, ['at', 'do', 'nodes', 'on'], where)
      if (typeof raw.on !== 'boolean') throw new ScenarioError(`${where}.on must be true or false`)
      return { at, do: 'mining', nodes: nodeList(raw.nodes, `${where}.nodes`, nodes), on: raw.on }
    case 'rogue':
      only(raw, ['at', 'do', 'node', 'kind', 'seconds'], where)
      if (raw.kind !== 'garbage' && raw.kind !== 'false-claim') throw new ScenarioError(`${where}.kind must be garbage or false-claim`)
      return { at, do: 'rogue', node: node(), kind: raw.kind, seconds: num(raw, 'seconds', where, 1, 3600, 20) }
    case 'links': {
      only(raw, ['at', 'do', 'between', 'latencyMs', 'jitterMs', 'bandwidth'], where)
      const step: Step = { at, do: 'links' }
      if (raw.between !== undefined) {
        if (!Array.isArray(raw.between)) throw new ScenarioError(`${where}.between must be a list of [a, b] pairs`)
        step.between = raw.between.map((p, j) => {
          const pair = nodeList(p, `${where}.between[${j}]`, nodes)
          if (pair.length !== 2) throw new ScenarioError(`${where}.between[${j}] must be a pair [a, b]`)
          return [pair[0], pair[1]] as [number, number]
        })
      }
      if (raw.latencyMs !== undefined) step.latencyMs = num(raw, 'latencyMs', where, 0, 60_000)
      if (raw.jitterMs !== undefined) step.jitterMs = num(raw, 'jitterMs', where, 0, 60_000)
      if (raw.bandwidth !== undefined) step.bandwidth = raw.bandwidth === null ? null : checkBandwidth(raw.bandwidth, `${where}.bandwidth`)
      return step
    }
    default: throw new ScenarioError(`${where}.do must be one of load, partition, heal, kill, restart, mining, rogue, links`)
  }
}

function checkBandwidth (v: unknown, where: string): string {
  if (typeof v !== 'string') throw new ScenarioError(`${where} must be a string like "10mbit"`)
  try { parseBandwidth(v) } catch (err) { throw new ScenarioError(`${where}: ${(err as Error).message}`) }
  return v
}

/** A scenario from parsed JSON; `name` when the file has none. */
export function parseScenario (raw: unknown, name: string): Scenario {
  if (!isObject(raw)) throw new ScenarioError('a scenario must be a JSON object')
  only(raw, ['name', 'description', ...Object.keys(DEFAULT_SCENARIO)], 'scenario')
  const d = DEFAULT_SCENARIO
  const nodes = int(raw, 'nodes', 'scenario', 2, MAX_NODES, d.nodes)
  const network = raw.network ?? d.network
  if (network !== 'testnet' && network !== 'devnet') throw new ScenarioError('scenario.network must be testnet or devnet')
  const topology = raw.topology ?? d.topology
  if (typeof topology !== 'string') throw new ScenarioError('scenario.topology must be a string')
  try { parseTopology(topology) } catch (err) { throw new ScenarioError(`scenario.topology: ${(err as Error).message}`) }
  const bandwidth = raw.bandwidth === undefined || raw.bandwidth === null ? d.bandwidth : checkBandwidth(raw.bandwidth, 'scenario.bandwidth')
  if (!Array.isArray(raw.steps ?? [])) throw new ScenarioError('scenario.steps must be a list')
  const steps = ((raw.steps ?? []) as unknown[]).map((s, i) => parseStep(s, i, nodes)).sort((a, b) => a.at - b.at)
  return {
    name: typeof raw.name === 'string' ? raw.name : name,
    description: typeof raw.description === 'string' ? raw.description : d.description,
    network,
    nodes,
    miners: int(raw, 'miners', 'scenario', 0, nodes, Math.min(d.miners, nodes)),
    mineDuty: int(raw, 'mineDuty', 'scenario', MIN_DUTY, MAX_DUTY, d.mineDuty),
    topology,
    latencyMs: num(raw, 'latencyMs', 'scenario', 0, 60_000, d.latencyMs),
    jitterMs: num(raw, 'jitterMs', 'scenario', 0, 60_000, d.jitterMs),
    bandwidth,
    seed: int(raw, 'seed', 'scenario', 0, 2 ** 32 - 1, d.seed),
    durationSeconds: num(raw, 'durationSeconds', 'scenario', 1, 86_400, d.durationSeconds),
    settleSeconds: num(raw, 'settleSeconds', 'scenario', 0, 3_600, d.settleSeconds),
    late: raw.late === undefined ? [] : nodeList(raw.late, 'scenario.late', nodes),
    steps
  }
}

/** A shipped scenario by name, or a JSON file by path. */
export function loadScenario (nameOrFile: string): Scenario {
  const shipped = path.join(SCENARIO_DIR, `${nameOrFile}.json`)
  const file = existsSync(shipped) && !nameOrFile.includes('/') ? shipped : path.resolve(nameOrFile)
  if (!existsSync(file)) throw new ScenarioError(`no scenario '${nameOrFile}': not a shipped one (${shippedScenarios().join(', ')}) nor a file`)
  let raw: unknown
  try { raw = JSON.parse(readFileSync(file, 'utf8')) } catch (err) { throw new ScenarioError(`${file}: ${(err as Error).message}`) }
  try { return parseScenario(raw, path.basename(file, '.json')) } catch (err) {
    if (err instanceof ScenarioError) throw new ScenarioError(`${file}: ${err.message}`)
    throw err
  }
}

export function shippedScenarios (): string[] {
  return ['steady', 'partition', 'churn', 'late-join', 'hashrate', 'relay']
}
