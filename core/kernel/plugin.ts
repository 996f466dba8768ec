// The plugin contract. A plugin is a folder with one manifest (`manifest.ts`, default
// export). It reaches other plugins only through container services (`provide`/`resolve`)
// and the hook catalogue (core/kernel/hooks.ts).
import type { Logger } from 'pino'
import type { Hooks } from './hooks.ts'
import type { NodeConfig } from './config.ts'
import type { NetworkParams } from '../chain/params.ts'
import type { Services } from './services.ts'

export type JsonSchema = Record<string, unknown>

export interface PluginContext<C = Record<string, unknown>> {
  /** this plugin's config section, validated against its schema, defaults applied */
  readonly config: C
  /** the whole node configuration (network, dataDir, cores, …) */
  readonly node: NodeConfig
  readonly params: NetworkParams
  readonly hooks: Hooks
  readonly logger: Logger
  /** aborted when the node starts shutting down */
  readonly signal: AbortSignal
  provide<K extends keyof Services>(name: K, value: Services[K]): void
  resolve<K extends keyof Services>(name: K): Services[K]
  /** a service of a plugin listed in `optional`, or undefined when none provides it */
  tryResolve<K extends keyof Services>(name: K): Services[K] | undefined
  /** runs after every plugin registered, in registration order (open ports, start work) */
  onStart(fn: () => Promise<void> | void): void
  /** runs at shutdown, in reverse registration order */
  onClose(fn: () => Promise<void> | void): void
}

export interface PluginManifest<C = Record<string, unknown>> {
  name: string
  description: string
  /** container services this plugin registers */
  provides: ReadonlyArray<keyof Services>
  /** services that must exist (the node refuses to boot without them) */
  needs: ReadonlyArray<keyof Services>
  /** services used when present */
  optional?: ReadonlyArray<keyof Services>
  /** JSON schema (ajv) of the plugin's config section, `ledger.config.ts` key = plugin name */
  configSchema?: JsonSchema
  register(ctx: PluginContext<C>): Promise<void> | void
}

export function definePlugin<C = Record<string, unknown>> (manifest: PluginManifest<C>): PluginManifest<C> {
  return manifest
}
