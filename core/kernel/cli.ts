// The `ledger` command line (yargs). Every `run` flag is also settable in ledger.config.ts;
// flags win. Errors a user can fix print one line and exit 2, never a stack trace.
// The kernel knows no command but `run`: the rest, and the `run` flags that set a plugin's
// section, come from manifests (commandLine below): the tools' (tools/*/manifest.ts), the
// built-in plugins' small `commands.ts`, and those of the profile's other plugins.
import path from 'node:path'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import yargs from 'yargs'
import type { Argv } from 'yargs'
import { hideBin } from 'yargs/helpers'
import type { NodeConfig, UserConfig } from './config.ts'
import type { StopReason } from './lifecycle.ts'
import { PROTOCOL_VERSION } from './version.ts'
import type { PluginCommand, PluginFlag, ToolManifest } from './plugin.ts'
import { builtinCommandFiles, builtinPluginNames, defaultExport, entryLocation, toolManifestFiles } from './loader.ts'
import { addFlags, pluginFlagOverrides } from './flags.ts'
import type { OwnedFlag } from './flags.ts'
import { CORE_FLAG_HELP, coreFlag } from './core-flag.ts'
import { UsageError } from './errors.ts'

// Modules a command needs are imported when it runs, not here: `ledger --help` must not load
// every plugin, the kernel, ajv and the crypto (issue 15: 0.8 s -> under 0.25 s).

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')

export { UsageError }

/** `ledger --version`: the package version and the protocol number peers compare */
export function versionText (): string {
  const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }
  return `ledger-node ${pkg.version} (protocol ${PROTOCOL_VERSION}, node ${process.versions.node})`
}

/** the kernel's own `run` options; the plugins' flags sit beside them as further keys */
interface RunArgs {
  config?: string
  network?: string
  'data-dir'?: string
  'log-level'?: string
  'log-format'?: string
  'status-interval'?: number
  core?: string[]
  [flag: string]: unknown
}

/** What the command line is made of besides `run`: commands, in the order `ledger --help`
 *  lists them, and the `run` flags with the plugin each belongs to. */
export interface CommandLine {
  commands: PluginCommand[]
  flags: OwnedFlag[]
}

/** The config file to use: --config, else ./ledger.config.ts, else the project's own. */
function configFile (explicit: string | undefined): string {
  if (explicit !== undefined) return path.resolve(explicit)
  const local = path.resolve('ledger.config.ts')
  return existsSync(local) ? local : path.join(PROJECT_ROOT, 'ledger.config.ts')
}

/** CLI flags as a config overlay: the kernel's keys, and each plugin flag under its plugin's
 *  section. */
export function flagOverrides (a: RunArgs, flags: readonly OwnedFlag[]): Record<string, unknown> {
  const o: Record<string, unknown> = { ...pluginFlagOverrides(a, flags) }
  if (a.network !== undefined) o.network = a.network
  if (a['data-dir'] !== undefined) o.dataDir = a['data-dir']
  if (a['log-level'] !== undefined) o.logLevel = a['log-level']
  if (a['log-format'] !== undefined) o.logFormat = a['log-format']
  if (a['status-interval'] !== undefined) o.statusIntervalSeconds = a['status-interval']
  return o
}

export async function buildNodeConfig (a: RunArgs, flags: readonly OwnedFlag[] = []): Promise<NodeConfig> {
  const { loadConfigFile, resolveConfig } = await import('./config.ts')
  const file = configFile(a.config)
  const user: UserConfig = await loadConfigFile(file)
  const overrides = flagOverrides(a, flags)
  if (a.core !== undefined && a.core.length > 0) overrides.cores = await coreFlag(a.core)
  return resolveConfig(user, overrides, path.dirname(file))
}

interface CommandSource { commands?: readonly PluginCommand[]; flags?: readonly PluginFlag[] }

async function importSource (file: string): Promise<{ default?: unknown } & CommandSource> {
  return await import(pathToFileURL(file).href) as { default?: unknown } & CommandSource
}

/** The profile's plugins that are not built-in (packages, paths): their manifests carry their
 *  commands and flags. A profile that cannot be read adds nothing here; `ledger run` reports
 *  what is wrong with it. */
async function profileSources (explicitConfig: string | undefined): Promise<Array<{ name: string; source: CommandSource }>> {
  const file = configFile(explicitConfig)
  const out: Array<{ name: string; source: CommandSource }> = []
  let entries: unknown
  try {
    const { loadConfigFile } = await import('./config-file.ts')
    entries = (await loadConfigFile(file)).plugins
  } catch { return out }
  if (!Array.isArray(entries)) return out
  const builtins = new Set(builtinPluginNames())
  for (const entry of entries) {
    try {
      const at = entryLocation(entry, path.dirname(file))
      if (at.origin.startsWith('built-in')) continue
      const manifest = defaultExport(await importSource(at.file)) as CommandSource & { name?: unknown } | undefined
      if (manifest === undefined || typeof manifest.name !== 'string' || builtins.has(manifest.name)) continue
      out.push({ name: manifest.name, source: manifest })
    } catch {
      // a plugin that fails to load is reported by `ledger run`, with its reason
    }
  }
  return out
}

/** `--config FILE` / `--config=FILE` from the raw arguments, before yargs parses them */
function configArg (argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? ''
    if (a === '--config') return argv[i + 1]
    if (a.startsWith('--config=')) return a.slice('--config='.length)
  }
  return undefined
}

/**
 * Everything the command line offers: the tools' commands, then every built-in plugin's
 * (`plugins/<name>/commands.ts`), then the commands of the profile's package and path plugins,
 * whose manifests are loaded only when they can matter (no command yet, `--help`, `run`, or a
 * command no tool or built-in has).
 */
export async function commandLine (argv: readonly string[] = []): Promise<CommandLine> {
  const commands: PluginCommand[] = []
  const flags: OwnedFlag[] = []
  for (const file of toolManifestFiles()) commands.push(...((defaultExport(await importSource(file)) as ToolManifest | undefined)?.commands ?? []))
  for (const file of builtinCommandFiles()) {
    const mod = await importSource(file)
    const plugin = path.basename(path.dirname(file))
    commands.push(...(mod.commands ?? []))
    for (const flag of mod.flags ?? []) flags.push({ plugin, flag })
  }
  const first = argv.find((a) => !a.startsWith('-'))
  const known = new Set(['run', ...commands.map(commandName)])
  const wantsProfile = first === undefined || first === 'run' || !known.has(first) || argv.includes('--help') || argv.includes('-h')
  if (wantsProfile) {
    for (const { name, source } of await profileSources(configArg(argv))) {
      commands.push(...(source.commands ?? []))
      for (const flag of source.flags ?? []) flags.push({ plugin: name, flag })
    }
  }
  return { commands, flags }
}

async function runNode (a: RunArgs, flags: readonly OwnedFlag[]): Promise<void> {
  const config = await buildNodeConfig(a, flags)
  const [{ createLogger, defaultLogFormat }, { Kernel }, { watchForStop }, { formatSummary, startNotifier, startupSummary, summaryRows }, { installFaultPolicy }] = await Promise.all([
    import('./logger.ts'), import('./kernel.ts'), import('./lifecycle.ts'), import('./notifier.ts'), import('./fault-policy.ts')
  ])
  const format = config.logFormat ?? defaultLogFormat()
  const logger = createLogger(config.logLevel, undefined, format)
  const kernel = new Kernel(config, logger)
  let stopping = false
  const shutdown = (reason: StopReason | 'uncaughtException' | 'unhandledRejection', exitCode = 0): void => {
    if (stopping) return
    stopping = true
    logger.info({ reason }, 'shutting down')
    const hard = setTimeout(() => { logger.error('shutdown took too long; exiting'); process.exit(1) }, 10_000)
    hard.unref()
    kernel.stop().then(() => { logger.flush?.(); process.exit(exitCode) }, (err: unknown) => { logger.error({ err }, 'shutdown failed'); process.exit(1) })
  }
  watchForStop(shutdown)
  // an error nobody caught is logged and the node carries on, or stops cleanly where its
  // state could be wrong (docs/operator.md, "Faults")
  installFaultPolicy({ logger, stop: (kind) => { shutdown(kind, 1) } })
  try {
    // the kernel takes the data dir's lock first; a failed start removes only what it created
    await kernel.boot()
    await kernel.start()
  } catch (err) {
    await kernel.stop()
    logger.flush?.()
    throw err
  }
  if (stopping) return
  // JSON logs carry it as fields for machines; a terminal gets it as lines to read
  if (format === 'json') logger.info({ summary: startupSummary(kernel) }, 'node running')
  else logger.info(formatSummary(kernel.params.name, config.dataDir, summaryRows(kernel)))
  if (config.statusIntervalSeconds > 0) startNotifier(kernel, logger, config.statusIntervalSeconds * 1000)
}

const runOptions = (flags: readonly OwnedFlag[]) => (y: Argv): Argv<RunArgs> => {
  const kernelFirst = y
    .option('config', { type: 'string', describe: 'node profile file (default ./ledger.config.ts)' })
    .option('network', { type: 'string', choices: ['testnet', 'mainnet', 'devnet'], describe: 'chain parameters and genesis [default: testnet]' })
    .option('data-dir', { type: 'string', describe: 'all node state [default: ~/.ledger/<network>]' })
  return addFlags(kernelFirst, flags)
    .option('log-level', { type: 'string', choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], describe: 'log level [default: info]' })
    .option('log-format', { type: 'string', choices: ['json', 'pretty'], describe: 'pretty: one line per entry; json: one object per line [default: pretty on a terminal, else json]' })
    .option('status-interval', { type: 'number', describe: 'seconds between status lines (height, peers, hash rate, mempool, sync); 0 turns them off [default: 30]' })
    .option('core', { type: 'string', array: true, describe: CORE_FLAG_HELP }) as Argv<RunArgs>
}

/** Builds the command line: `run` with the plugins' flags, then every other command. */
export function buildCli (argv: string[], line: CommandLine = { commands: [], flags: [] }): Argv {
  let cli = yargs(argv)
    .scriptName('ledger')
    .usage('$0 <command> [options]')
    .command('run', 'run a node: mines, serves every surface', runOptions(line.flags), async (a) => { await runNode(a, line.flags) })
  for (const command of line.commands) cli = cli.command(command)
  return cli
    .demandCommand(1, `name a command: ${['run', ...line.commands.map(commandName)].join(', ')}`)
    .strict()
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version(versionText())
    .fail((msg, err) => {
      if (err !== undefined && err !== null) throw err
      throw new UsageError(msg)
    })
}

/** A bad config or plugin; their modules are loaded only to ask (a command may have loaded them). */
async function isUserFixable (err: unknown): Promise<boolean> {
  const [{ ConfigError }, { PluginLoadError }] = await Promise.all([import('./config.ts'), import('./loader.ts')])
  return err instanceof ConfigError || err instanceof PluginLoadError
}

function commandName (c: PluginCommand): string {
  const first = Array.isArray(c.command) ? c.command[0] : c.command
  return String(first ?? '').split(' ')[0] ?? ''
}

export async function main (argv = hideBin(process.argv)): Promise<void> {
  try {
    await buildCli(argv, await commandLine(argv)).parseAsync()
  } catch (err) {
    if (err instanceof UsageError || await isUserFixable(err)) {
      console.error(`ledger: ${(err as Error).message}`)
      process.exit(2)
    }
    console.error(`ledger: ${(err as Error).message ?? String(err)}`)
    if (process.env.LEDGER_DEBUG !== undefined) console.error(err)
    process.exit(1)
  }
}
