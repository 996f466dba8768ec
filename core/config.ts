// Node configuration: `ledger.config.ts` (defineConfig) overlaid with CLI flags, validated by
// ajv. A bad value exits with a message naming the key, never a stack trace.
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { existsSync } from 'node:fs'
import { Ajv } from 'ajv'
import type { ErrorObject } from 'ajv'
import type { NetworkName } from './chain/params.ts'
import type { JsonSchema } from './plugin.ts'

export type PluginEntry = string | { name?: string; path?: string; enabled?: boolean }

export interface CoreSelection {
  sha3: 'wasm' | 'js'
  pow: 'wasm' | 'js'
  vm: 'wasm' | 'js'
  mldsa: 'native' | 'noble'
}

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

export type UserConfig = Partial<Omit<NodeConfig, 'cores' | 'baseDir'>> & { cores?: Partial<CoreSelection> } & Record<string, unknown>

/** Identity helper that gives `ledger.config.ts` type checking. */
export function defineConfig (config: UserConfig): UserConfig { return config }

export class ConfigError extends Error {}

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
            properties: { name: { type: 'string', minLength: 1 }, path: { type: 'string', minLength: 1 }, enabled: { type: 'boolean' } },
            additionalProperties: false,
            anyOf: [{ required: ['name'] }, { required: ['path'] }]
          }
        ]
      },
      default: []
    },
    cores: {
      type: 'object',
      properties: {
        sha3: { type: 'string', enum: ['wasm', 'js'], default: 'wasm' },
        pow: { type: 'string', enum: ['wasm', 'js'], default: 'wasm' },
        vm: { type: 'string', enum: ['wasm', 'js'], default: 'wasm' },
        mldsa: { type: 'string', enum: ['native', 'noble'], default: 'native' }
      },
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

/** Loads a config module (TypeScript via Node's type stripping) and returns its default export. */
export async function loadConfigFile (file: string): Promise<UserConfig> {
  const abs = path.resolve(file)
  if (!existsSync(abs)) throw new ConfigError(`config file not found: ${abs}`)
  let mod: { default?: unknown }
  try {
    mod = await import(pathToFileURL(abs).href) as { default?: unknown }
  } catch (err) {
    throw new ConfigError(`cannot load config file ${abs}: ${(err as Error).message}`)
  }
  if (mod.default === null || typeof mod.default !== 'object' || Array.isArray(mod.default)) {
    throw new ConfigError(`config file ${abs} must default-export an object (use defineConfig)`)
  }
  return mod.default as UserConfig
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
