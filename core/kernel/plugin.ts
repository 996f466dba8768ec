// The plugin contract. A plugin is a folder with one manifest (`manifest.ts`, default
// export). It reaches other plugins only through container services (`provide`/`resolve`)
// and the hook catalogue (core/kernel/hooks.ts).
import type { Logger } from 'pino'
import type { CommandModule, Options } from 'yargs'
import type { HookCatalogue, Hooks } from './hooks.ts'
import type { NodeConfig } from './config.ts'
import type { NetworkParams } from '../chain/params.ts'
import type { Services } from './services.ts'
import type { FollowHandler, FollowOptions, Follower } from './follow.ts'

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

/**
 * A `ledger run` option that sets one key of its plugin's config section (flags win over
 * ledger.config.ts). `--dashboard-port 9000` is `{ name: 'dashboard-port', key: 'port', port:
 * true, option: { type: 'number', describe } }` in the dashboard's manifest.
 */
export interface PluginFlag {
  /** the option without dashes, unique across the profile */
  name: string
  /** the key of this plugin's config section it sets */
  key: string
  /** how yargs parses and documents it (type, describe, array, choices) */
  option: Options
  /** a listening port: checked 0-65535, and named when the port is taken (EADDRINUSE) */
  port?: boolean
  /** the config value for a given flag value, or undefined to leave the config alone
   *  (`--no-mine` sets `enabled: false`, `--mine` changes nothing); default: the value */
  toConfig?: (value: unknown) => unknown
}

/** What a plugin's `summary` and `status` may look at once the node runs. */
export interface SummaryView {
  /** a service of the running node, or undefined when no plugin provides it */
  service<K extends keyof Services>(name: K): Services[K] | undefined
  readonly dataDir: string
  readonly env: NodeJS.ProcessEnv
}

/**
 * One row of the startup summary. The terminal shows `label` and the value(s), rows sorted by
 * `order` (URLs 100-899, then files and secrets 900-999); JSON logs carry it as
 * `summary.urls[key]` (`top: true`: `summary[key]`).
 */
export interface SummaryRow {
  key: string
  label: string
  /** several values: the first beside the label, the rest under it */
  value: string | string[]
  order: number
  top?: boolean
}

/** A plugin's part of the periodic status line (`height 1,204 · peers 2 · 1.2 MH/s · mempool 3 · synced`):
 *  the kernel merges every plugin's part; no `height` from anyone, no line. */
export interface StatusPart {
  height?: number
  peers?: number
  /** hashes per second; null: not mining */
  hashRate?: number | null
  mempool?: number
  sync?: 'idle' | 'syncing' | 'synced'
  /** the best height a peer reports */
  target?: number
  /** blocks mined here are logged by their miner; the status line's block lines skip them */
  ownMinerAddress?: string
}

/** A `tools/<name>/manifest.ts`: commands that are not a plugin of the node (wallet, verify,
 *  bench). Keep it light: the handlers import what they run. */
export interface ToolManifest {
  name: string
  description: string
  commands: readonly PluginCommand[]
}

export function defineTool (manifest: ToolManifest): ToolManifest {
  return manifest
}

export interface PluginContext<C = Record<string, unknown>> {
  /** this plugin's config section, validated against its schema, defaults applied */
  readonly config: C
  /** the whole node configuration (network, dataDir, cores, …) */
  readonly node: NodeConfig
  readonly params: NetworkParams
  /** the hook catalogue to tap; firing is for owners (`ownedHooks`) */
  readonly hooks: HookCatalogue
  /** the same catalogue typed for firing: call()/promise() work on the hooks this plugin owns
   *  (those of the services it provides, see HOOK_OWNERS, and those it declares in `hooks`) and
   *  throw HookOwnerError on any other */
  readonly ownedHooks: Hooks
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
  /**
   * Follows the best chain from a durable cursor: `handler` gets every block as a `commit`, in
   * order, from genesis (or the tip, `from: 'tip'`) or from the last notification it
   * acknowledged; blocks that leave the best chain come back as `revert`s (newest first) before
   * the new branch's commits. Needs `chainFollow` in `needs`. Delivery starts when the node
   * starts and stops before any plugin closes. `name` is unique within the plugin.
   */
  follow(name: string, handler: FollowHandler, opts?: FollowOptions): Follower
  /** runs after every plugin registered, in registration order (open ports, start work) */
  onStart(fn: () => Promise<void> | void): void
  /** runs at shutdown, in reverse registration order */
  onClose(fn: () => Promise<void> | void): void
}

export interface PluginManifest<C = Record<string, unknown>> {
  name: string
  description: string
  /** the plugin API version this plugin is written for ('1.0'): the node loads it when its own
   *  API (PLUGIN_API_VERSION) is that version or a later minor of the same major */
  apiVersion: string
  /** container services this plugin registers */
  provides: ReadonlyArray<keyof Services>
  /** services that must exist (the node refuses to boot without them) */
  needs: ReadonlyArray<keyof Services>
  /** services used when present */
  optional?: ReadonlyArray<keyof Services>
  /** JSON schema (ajv) of the plugin's config section, `ledger.config.ts` key = plugin name */
  configSchema?: JsonSchema
  /** `ledger <command>`s this plugin adds, listed by `ledger --help` for every plugin in the
   *  profile (a built-in's come from its `commands.ts`, which the manifest re-exports) */
  commands?: readonly PluginCommand[]
  /** hooks this plugin declares and alone fires: name -> a factory of the tapable hook (type
   *  them by merging into `Hooks` of 'ledger-node/hooks') */
  hooks?: Readonly<Record<string, () => object>>
  /** `ledger run` options that set keys of this plugin's section (in the same `commands.ts`) */
  flags?: readonly PluginFlag[]
  /** rows of the startup summary (URLs, files), read once the node runs */
  summary?: (view: SummaryView) => SummaryRow[]
  /** this plugin's part of the periodic status line */
  status?: (view: SummaryView) => StatusPart
  register(ctx: PluginContext<C>): Promise<void> | void
}

export { PLUGIN_API_VERSION } from './plugin-api.ts'

export function definePlugin<C = Record<string, unknown>> (manifest: PluginManifest<C>): PluginManifest<C> {
  return manifest
}

// The types a plugin works with, exported by name from 'ledger-node/plugin' (docs/plugins.md).
export type { Block, Transaction, TxData, Attestation, BeaconEvidence, QuantumSignature } from '../chain/types.ts'
export type { Receipt, ReceiptLog } from '../vm/receipt.ts'
export type { ChainService, BlockOrigin, ProcessResult, ProcessOptions, StoredReceipt, ConfirmedTx } from '../chain/chain-service.ts'
export type { MempoolService } from '../chain/mempool-service.ts'
export type { FollowNotification, FollowHandler, FollowOptions, FollowCursorStore, Follower, ChainFollowService } from './follow.ts'
export type { NetworkParams } from '../chain/params.ts'
export type { NodeConfig } from './config.ts'
export type { Services, NodeInfo, WalletStore, EntropyProvider, MinerService, MinerStatus, PeerService, PeerInfo } from './services.ts'
export type { Hooks, HookCatalogue, TapOnly, TxRefusal, BlockRef, BlockConnectedEvent, ReorgEvent } from './hooks.ts'
/** coin <-> bohm (10^18 bohm a coin): exact arithmetic on amounts and fees */
export { BOHM_PER_COIN, bohmToCoin, coinToBohm } from '../chain/money.ts'
export { CONTRACT_RECIPIENT, GENESIS_SENDER, MINING_REWARD_SENDER } from '../chain/types.ts'
