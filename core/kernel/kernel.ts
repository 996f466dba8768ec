// The kernel: configuration, the awilix container, the hook bus and the plugin lifecycle.
// Start in dependency order, stop in reverse (Lodestar's node lifecycle).
import { existsSync, mkdirSync, statSync } from 'node:fs'
import { isMainThread } from 'node:worker_threads'
import { asFunction, asValue, createContainer, InjectionMode } from 'awilix'
import type { AwilixContainer } from 'awilix'
import type { Logger } from 'pino'
import { createHooks, HOOK_OWNERS, hooksFor, isolateHook, isolateListeners } from './hooks.ts'
import type { Hooks } from './hooks.ts'
import { checkTopLevelKeys, ConfigError, validateSection } from './config.ts'
import type { NodeConfig } from './config.ts'
import { builtinPluginNames, KERNEL_SERVICES, loadPlugins, orderPlugins, PluginLoadError } from './loader.ts'
import type { PluginContext, PluginFlag, PluginManifest } from './plugin.ts'
import { portFlagOf } from './flags.ts'
import type { NodeInfo, NodeStatus, Services } from './services.ts'
import type { NetworkParams } from '../chain/params.ts'
import { networkParams } from '../../config/networks.ts'
import { Cores } from '../cores/cores.ts'
import { lockDataDir } from './data-dir-lock.ts'
import type { DataDirLock } from './data-dir-lock.ts'

const NO_CONFIG = { type: 'object', properties: {}, additionalProperties: false } as const

export type { NodeStatus }

export interface KernelOptions {
  /** false: the kernel neither creates nor checks the data dir (`ledger entropy` has none) */
  dataDir?: boolean
  /** what this process runs, named to a second process refused the data dir (default `ledger run`) */
  command?: string
}

type Task = () => Promise<void> | void

export class Kernel {
  readonly config: NodeConfig
  readonly params: NetworkParams
  readonly hooks: Hooks
  readonly logger: Logger
  readonly container: AwilixContainer<Services>
  /** this kernel's own cores: never process-wide, so two kernels in one process may differ */
  readonly cores: Cores
  readonly startedAt: number
  status: NodeStatus = 'created'
  plugins: PluginManifest[] = []
  readonly #abort = new AbortController()
  readonly #starters: Array<{ plugin: string; fn: Task }> = []
  readonly #closers: Array<{ plugin: string; fn: Task }> = []
  readonly #usesDataDir: boolean
  readonly #command: string
  #dataDirLock: DataDirLock | undefined
  readonly #declaredHookOwner = new Map<string, string>()

  constructor (config: NodeConfig, logger: Logger, params: NetworkParams = networkParams(config.network), opts: KernelOptions = {}) {
    this.#usesDataDir = opts.dataDir !== false
    this.#command = opts.command ?? 'ledger run'
    this.config = config
    this.params = params
    this.logger = logger
    this.hooks = createHooks()
    isolateListeners(this.hooks, ({ hook, tap, err }) => {
      this.logger.error({ hook, tap, err }, `hook listener '${tap}' on ${hook} failed; the node carries on (fix or disable the plugin that tapped it)`)
    })
    this.startedAt = Date.now() / 1000
    this.cores = new Cores(config.cores)
    this.container = createContainer<Services>({ injectionMode: InjectionMode.PROXY, strict: true })
    this.container.register({
      config: asValue(config),
      logger: asValue(logger),
      hooks: asValue(this.hooks),
      params: asValue(params),
      node: asValue(this.#nodeInfo()),
      cores: asValue(this.cores)
    })
  }

  get signal (): AbortSignal { return this.#abort.signal }

  /** the `node` service: what a plugin may know of the kernel, read live */
  #nodeInfo (): NodeInfo {
    return {
      status: () => this.status,
      startedAt: this.startedAt,
      dataDir: this.config.dataDir,
      plugins: () => this.plugins.map((p) => p.name)
    }
  }

  /** Loads, orders and registers every enabled plugin; nothing listens yet. */
  async boot (): Promise<void> {
    if (this.#usesDataDir) this.#ownerOnlyFiles()
    try {
      const loaded = await loadPlugins(this.config.plugins, this.config.baseDir)
      // a section may belong to a listed plugin (enabled or not) or to a built-in one left out
      // of this profile (CLI flags fill the built-ins' sections); anything else is a typo
      const listed = new Set(loaded.map((l) => l.manifest.name))
      checkTopLevelKeys(this.config, [...listed, ...builtinPluginNames()])
      for (const name of builtinPluginNames()) {
        const section = this.config[name]
        if (!listed.has(name) && section !== undefined && section !== null && typeof section === 'object' && Object.keys(section).length > 0) {
          this.logger.warn({ section: name }, `config section '${name}' has no effect: the plugin '${name}' is not in plugins`)
        }
      }
      for (const p of loaded.filter((l) => !l.enabled)) this.logger.info({ plugin: p.manifest.name }, 'plugin disabled by config')
      this.plugins = orderPlugins(loaded)
      this.#declareHooks()
      for (const manifest of this.plugins) await this.#register(manifest)
    } catch (err) {
      // what the plugins registered before the failure (databases, verify threads) is closed,
      // so a failed boot leaves nothing open behind it
      await this.#abandon()
      throw err
    }
    this.logger.info({ plugins: this.plugins.map((p) => p.name), network: this.params.name, dataDir: this.config.dataDir, cores: String(this.cores) }, `loaded ${this.plugins.length} plugins`)
  }

  /** the hooks the plugins declare join the catalogue before any plugin registers (a plugin
   *  may tap another's hook whatever their order) */
  #declareHooks (): void {
    const catalogue = this.hooks as unknown as Record<string, object>
    for (const m of this.plugins) {
      for (const [name, make] of Object.entries(m.hooks ?? {})) {
        const owner = this.#declaredHookOwner.get(name)
        if (name in catalogue) throw new PluginLoadError(`plugin '${m.name}' declares hook '${name}', which ${owner === undefined ? 'the node' : `plugin '${owner}'`} already has`)
        const hook = make()
        if (typeof (hook as { intercept?: unknown }).intercept !== 'function') throw new PluginLoadError(`plugin '${m.name}': hooks.${name} must make a tapable hook`)
        isolateHook(name, hook as Parameters<typeof isolateHook>[1], ({ hook: h, tap, err }) => {
          this.logger.error({ hook: h, tap, err }, `hook listener '${tap}' on ${h} failed; the node carries on (fix or disable the plugin that tapped it)`)
        })
        catalogue[name] = hook
        this.#declaredHookOwner.set(name, m.name)
      }
    }
  }

  /** whether plugin `m` may fire hook `name` */
  #owns (m: PluginManifest, name: string): boolean {
    const declared = this.#declaredHookOwner.get(name)
    if (declared !== undefined) return declared === m.name
    const owners = (HOOK_OWNERS as Record<string, 'kernel' | readonly string[]>)[name]
    return owners !== undefined && owners !== 'kernel' && owners.some((s) => (m.provides as readonly string[]).includes(s))
  }

  #ownerOf (name: string): string {
    const declared = this.#declaredHookOwner.get(name)
    if (declared !== undefined) return `plugin '${declared}'`
    const owners = (HOOK_OWNERS as Record<string, 'kernel' | readonly string[]>)[name]
    return owners === undefined || owners === 'kernel' ? 'the kernel' : `the provider of ${owners.map((s) => `'${s}'`).join(' or ')}`
  }

  /** The data dir holds wallet seeds, keys and the admin password: everything in it is
   *  created owner-only (0700 / 0600). RocksDB and the other writers create their files under
   *  the process umask, so the node sets it, as bitcoind does. */
  #ownerOnlyFiles (): void {
    if (isMainThread) process.umask(0o077)
    const created = ensureDataDir(this.config.dataDir)
    // before anything in the dir is read or written: one owner per data dir
    this.#dataDirLock = lockDataDir(this.config.dataDir, this.#command, created)
    const loose = statSync(this.config.dataDir).mode & 0o077
    if (loose !== 0) this.logger.warn({ dataDir: this.config.dataDir, mode: (statSync(this.config.dataDir).mode & 0o777).toString(8) }, 'the data dir is open to other users; chmod 700 it')
  }

  async #register (manifest: PluginManifest): Promise<void> {
    // a plugin without a schema takes no configuration: any key in its section is a mistake
    const section = validateSection(manifest.name, manifest.configSchema ?? NO_CONFIG, this.config[manifest.name])
    this.config[manifest.name] = section
    const allowed = new Set<string>([...manifest.needs, ...(manifest.optional ?? []), ...manifest.provides, ...KERNEL_SERVICES])
    const checkDeclared = (name: keyof Services, how: string): void => {
      if (!allowed.has(name)) throw new PluginLoadError(`plugin '${manifest.name}' ${how} '${String(name)}' without declaring it in manifest.needs or manifest.optional`)
    }
    const checkProvides = (name: keyof Services): void => {
      if (!manifest.provides.includes(name)) throw new PluginLoadError(`plugin '${manifest.name}' provides '${String(name)}' without declaring it in manifest.provides`)
    }
    const hooks = hooksFor(this.hooks, manifest.name, (h) => this.#owns(manifest, h), (h) => this.#ownerOf(h))
    const ctx: PluginContext = {
      config: section as Record<string, unknown>,
      node: this.config,
      params: this.params,
      hooks,
      ownedHooks: hooks,
      logger: this.logger.child({ module: manifest.name }),
      signal: this.#abort.signal,
      provide: (name, value) => {
        checkProvides(name)
        this.container.register(name, asValue(value))
      },
      provideFactory: (name, factory, opts = {}) => {
        checkProvides(name)
        // a singleton built on first resolve; the container disposes of it when the node stops
        const { dispose } = opts
        const registration = asFunction(factory).singleton()
        this.container.register(name, dispose === undefined ? registration : registration.disposer(dispose))
      },
      resolve: (name) => {
        checkDeclared(name, 'resolves')
        return this.container.resolve(name)
      },
      tryResolve: (name) => {
        checkDeclared(name, 'tries to resolve')
        return this.container.hasRegistration(name) ? this.container.resolve(name) : undefined
      },
      follow: (name, handler, opts) => {
        checkDeclared('chainFollow', 'follows the chain (ctx.follow) through')
        if (!this.container.hasRegistration('chainFollow')) throw new PluginLoadError(`plugin '${manifest.name}' follows the chain, but no enabled plugin provides 'chainFollow'`)
        return this.container.resolve('chainFollow').follow(`${manifest.name}/${name}`, handler, opts)
      },
      onStart: (fn) => { this.#starters.push({ plugin: manifest.name, fn }) },
      onClose: (fn) => { this.#closers.push({ plugin: manifest.name, fn }) }
    }
    await manifest.register(ctx)
    for (const s of manifest.provides) {
      if (!this.container.hasRegistration(s)) throw new PluginLoadError(`plugin '${manifest.name}' declared service '${String(s)}' but did not provide it`)
    }
  }

  async start (): Promise<void> {
    this.status = 'starting'
    for (const { plugin, fn } of this.#starters) {
      try {
        await fn()
      } catch (err) {
        const explained = explainStartError(plugin, this.plugins.find((p) => p.name === plugin)?.flags, err)
        // a known operator mistake is one friendly line; anything else keeps its stack
        if (explained instanceof ConfigError) this.logger.error({ plugin }, explained.message)
        else this.logger.error({ plugin, err }, 'plugin failed to start')
        await this.#abandon()
        throw explained
      }
    }
    this.status = 'running'
    await this.hooks.started.promise()
  }

  /** Idempotent; closes plugins in reverse registration order, each bounded in time. */
  async stop (): Promise<void> {
    if (this.status === 'stopping' || this.status === 'stopped') return
    this.status = 'stopping'
    this.#abort.abort()
    try { await this.hooks.stopping.promise() } catch (err) { this.logger.error({ err }, 'stopping hook failed') }
    for (const { plugin, fn } of [...this.#closers].reverse()) {
      try {
        await Promise.race([Promise.resolve(fn()), new Promise((resolve) => setTimeout(resolve, 5000).unref())])
      } catch (err) {
        this.logger.error({ plugin, err }, 'plugin failed to close cleanly')
      }
    }
    // services registered as factories with a disposer (built ones only), after every plugin
    // closed: a plugin's close may still use them
    try {
      await Promise.race([this.container.dispose(), new Promise((resolve) => setTimeout(resolve, 5000).unref())])
    } catch (err) {
      this.logger.error({ err }, 'disposing of the services failed')
    }
    this.status = 'stopped'
    this.#dataDirLock?.release()
  }

  /** A failed boot or start leaves the data dir as it found it: no admin credentials, API key,
   *  peer key or genesis-only chain the next start would silently reuse. Only what appeared
   *  while this kernel held the lock is removed (nothing else can have made it), before the
   *  lock is let go. */
  async #abandon (): Promise<void> {
    const lock = this.#dataDirLock
    this.#dataDirLock = undefined
    await this.stop()
    if (lock === undefined) return
    try {
      const removed = lock.removeCreated()
      if (removed.length > 0) this.logger.info({ removed }, 'start failed: removed what this start created in the data dir')
    } finally {
      lock.release()
    }
  }
}

/** Creates the data dir, or says in words why it cannot (--data-dir naming a file, a path
 *  through a file, no permission) instead of Node's EEXIST / ENOTDIR text. */
export function ensureDataDir (dir: string): boolean {
  const fix = 'pass --data-dir (or dataDir in ledger.config.ts) naming a directory; it is created if missing'
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new ConfigError(`data dir ${dir} is a file, not a directory: ${fix}`)
  try {
    return mkdirSync(dir, { recursive: true, mode: 0o700 }) !== undefined
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOTDIR' || code === 'EEXIST') throw new ConfigError(`data dir ${dir} cannot be created: part of that path is a file, not a directory; ${fix}`)
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') throw new ConfigError(`data dir ${dir} cannot be created: permission denied; ${fix}`)
    throw err
  }
}

/** A port already taken is an operator's everyday mistake: say which plugin, which address,
 *  and the exact flag that moves it. */
function explainStartError (plugin: string, flags: readonly PluginFlag[] | undefined, err: unknown): unknown {
  const e = err as NodeJS.ErrnoException & { address?: string; port?: number }
  if (e?.code !== 'EADDRINUSE' && e?.code !== 'EACCES') return err
  const where = e.address !== undefined ? `${e.address}:${e.port ?? '?'}` : 'its address'
  // the flag its manifest declares for its listener
  const flag = portFlagOf(flags)
  const move = flag === undefined ? `change the port in the '${plugin}' section of ledger.config.ts` : `pick another port with ${flag}`
  const why = e.code === 'EADDRINUSE' ? `address already in use (another node or program holds it; ${move})` : `permission denied (ports below 1024 need privileges; ${move})`
  return new ConfigError(`plugin '${plugin}' cannot listen on ${where}: ${why}`, { cause: err })
}
