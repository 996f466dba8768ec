// The plugin contract. A plugin is a folder with one manifest (`manifest.ts`, default
// export). It reaches other plugins only through container services (`provide`/`resolve`)
// and the hook catalogue (core/kernel/hooks.ts).
import type { Logger } from 'pino'
import type { CommandModule } from 'yargs'
import type { Hooks } from './hooks.ts'
import type { NodeConfig } from './config.ts'
import type { NetworkParams } from '../chain/params.ts'
import type { Services } from './services.ts'

export type JsonSchema = Record<string, unknown>

/** A `ledger <command>` a plugin contributes: a yargs command module whose handler imports
 *  its heavy code when it runs. Keep a plugin's commands in a small `commands.ts` that the
 *  manifest re-exports: `ledger --help` loads those files of the built-in plugins, never
 *  their implementations. */
export type PluginCommand = CommandModule

/** A command with its own argument types, as the manifest's `commands` entry (yargs parses
 *  the arguments its builder declares before the handler sees them). */
export function defineCommand<A> (command: CommandModule<object, A>): PluginCommand {
  return command as unknown as PluginCommand
}

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
  /** registers a service this plugin declared in `provides`, as a ready value */
  provide<K extends keyof Services>(name: K, value: Services[K]): void
  /** registers a service this plugin declared in `provides` as a singleton built on first
   *  resolve; `dispose` runs when the node stops (after every plugin's onClose), only if it
   *  was built. For a service that owns resources (files, sockets, threads). */
  provideFactory<K extends keyof Services>(name: K, factory: () => Services[K], opts?: { dispose?: (value: Services[K]) => Promise<void> | void }): void
  /** a service named in `needs`, `optional` or `provides` (or a kernel service); anything
   *  else throws PluginLoadError */
  resolve<K extends keyof Services>(name: K): Services[K]
  /** a service named in `optional` (or `needs`), or undefined when no plugin provides it;
   *  an undeclared name throws like resolve */
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
  /** CLI commands this plugin adds (the built-in plugins' are listed by `ledger --help`) */
  commands?: readonly PluginCommand[]
  register(ctx: PluginContext<C>): Promise<void> | void
}

export function definePlugin<C = Record<string, unknown>> (manifest: PluginManifest<C>): PluginManifest<C> {
  return manifest
}
