// Node configuration: `ledger.config.ts` (defineConfig) overlaid with CLI flags, validated by
// ajv. A bad value exits with a message naming the key, never a stack trace.
import os from 'node:os'
import path from 'node:path'
import { Ajv } from 'ajv'
import type { ErrorObject } from 'ajv'
import type { NetworkName } from '../chain/params.ts'
import type { JsonSchema } from './plugin.ts'
import { coreFamilies, coreNames, DEFAULT_CORE_SELECTION } from '../cores/cores.ts'
import type { CoreSelection } from '../cores/cores.ts'
import type { PluginEntry, UserConfig } from './define-config.ts'
import { ConfigError } from './config-file.ts'

export { defineConfig } from './define-config.ts'
export { ConfigError, loadConfigFile, syntaxErrorLocation } from './config-file.ts'
export type { PluginEntry, UserConfig, CoreSelection }

export interface NodeConfig {
  network: NetworkName
  dataDir: string
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
  /** pretty: one coloured line per entry; json: one JSON object per line. Unset: pretty on a terminal, json otherwise */
  logFormat?: 'json' | 'pretty'
  /** seconds between terminal status lines (height, peers, hash rate, mempool, sync); 0: none */
  statusIntervalSeconds: number
  plugins: PluginEntry[]
  cores: CoreSelection
  /** directory relative plugin paths are resolved against (the config file's folder) */
  baseDir: string
  /** per-plugin sections, keyed by plugin name */
  [section: string]: unknown
}

const coreSchema: JsonSchema = {
  type: 'object',
  properties: {
    network: { type: 'string', enum: ['testnet', 'mainnet', 'devnet'], default: 'testnet' },
    dataDir: { type: 'string', minLength: 1 },
    logLevel: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
    logFormat: { type: 'string', enum: ['json', 'pretty'] },
    statusIntervalSeconds: { type: 'number', minimum: 0, maximum: 86400, default: 30 },
    plugins: {
      type: 'array',
      items: {
        anyOf: [
          { type: 'string', minLength: 1 },
          {
            type: 'object',
            properties: { name: { type: 'string', minLength: 1 }, package: { type: 'string', minLength: 1 }, path: { type: 'string', minLength: 1 }, enabled: { type: 'boolean' } },
            additionalProperties: false,
            anyOf: [{ required: ['name'] }, { required: ['package'] }, { required: ['path'] }]
          }
        ]
      },
      default: []
    },
    cores: {
      type: 'object',
      // one key per core family, its values the family's registry (core/cores/cores.ts)
      properties: Object.fromEntries(coreFamilies().map((f) => [f, { type: 'string', enum: coreNames(f), default: DEFAULT_CORE_SELECTION[f] }])),
      additionalProperties: false,
      default: {}
    },
    baseDir: { type: 'string' }
  },
  required: ['network', 'plugins', 'cores']
}

export const ajv = new Ajv({ allErrors: false, useDefaults: true, coerceTypes: false, strict: false })

export function formatAjvError (prefix: string, err: ErrorObject | undefined): string {
  if (err === undefined) return `invalid config: ${prefix || 'value'} is invalid`
  let key = [prefix, err.instancePath.replace(/^\//, '').replace(/\//g, '.')].filter((s) => s.length > 0).join('.')
  if (err.keyword === 'additionalProperties') {
    key = [key, String(err.params.additionalProperty)].filter((s) => s.length > 0).join('.')
    return `invalid config: unknown key "${key}"`
  }
  if (err.keyword === 'required') key = [key, String(err.params.missingProperty)].filter((s) => s.length > 0).join('.')
  const detail = err.keyword === 'enum' ? `must be one of ${(err.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` : err.message ?? 'is invalid'
  return `invalid config: "${key || 'config'}" ${detail}`
}

const validateCore = ajv.compile(coreSchema)

/** Validates a plugin's section in place (defaults applied) or throws ConfigError naming the key. */
export function validateSection (name: string, schema: JsonSchema, value: unknown): Record<string, unknown> {
  const section = value === undefined ? {} : value
  const validate = ajv.compile({ type: 'object', ...schema })
  if (!validate(section)) throw new ConfigError(formatAjvError(name, validate.errors?.[0]))
  return section as Record<string, unknown>
}

export function defaultDataDir (network: NetworkName): string {
  return path.join(os.homedir(), '.ledger', network)
}

/** top-level keys of the config besides plugin sections */
export const CORE_KEYS: readonly string[] = Object.keys(coreSchema.properties as Record<string, unknown>)

/** Levenshtein distance, for "did you mean" on a mistyped key */
function editDistance (a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] ?? 0
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const keep = row[j] ?? 0
      row[j] = Math.min((row[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1))
      prev = keep
    }
  }
  return row[b.length] ?? 0
}

/** Throws on a top-level key that is neither a core key nor the section of a known plugin
 *  (`netwrok`, `dashbord`): such a typo would otherwise be ignored without a word. */
export function checkTopLevelKeys (config: Record<string, unknown>, sections: Iterable<string>): void {
  const known = new Set([...CORE_KEYS, ...sections])
  for (const key of Object.keys(config)) {
    if (known.has(key)) continue
    const near = [...known].map((k) => ({ k, d: editDistance(key.toLowerCase(), k.toLowerCase()) })).sort((x, y) => x.d - y.d)[0]
    const hint = near !== undefined && near.d <= Math.max(2, Math.floor(key.length / 3)) ? ` (did you mean "${near.k}"?)` : ''
    throw new ConfigError(`invalid config: unknown key "${key}"${hint}: top-level keys are ${CORE_KEYS.filter((k) => k !== 'baseDir').join(', ')} and plugin sections named after a plugin`)
  }
}

function isObject (v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

/** Deep merge where `over` wins; arrays are replaced, not concatenated. */
export function mergeConfig (base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base }
  for (const [k, v] of Object.entries(over)) {
    if (v === undefined) continue
    out[k] = isObject(v) && isObject(out[k]) ? mergeConfig(out[k] as Record<string, unknown>, v) : v
  }
  return out
}

export function resolveConfig (user: UserConfig, overrides: Record<string, unknown> = {}, baseDir = process.cwd()): NodeConfig {
  const merged = mergeConfig(structuredClone(user) as Record<string, unknown>, overrides)
  if (!validateCore(merged)) throw new ConfigError(formatAjvError('', validateCore.errors?.[0]))
  const cfg = merged as NodeConfig
  cfg.baseDir = typeof cfg.baseDir === 'string' ? cfg.baseDir : baseDir
  cfg.dataDir = path.resolve(cfg.dataDir ?? defaultDataDir(cfg.network))
  return cfg
}
