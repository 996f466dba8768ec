// The `ledger` command line (yargs). Every `run` flag is also settable in ledger.config.ts;
// flags win. Errors a user can fix print one line and exit 2, never a stack trace.
import path from 'node:path'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import yargs from 'yargs'
import type { Argv } from 'yargs'
import { hideBin } from 'yargs/helpers'
import type { NodeConfig, UserConfig } from './config.ts'
import { walletCommands, WalletCliError } from './cli/wallet.ts'
import type { StopReason } from './lifecycle.ts'
import { PROTOCOL_VERSION } from './version.ts'
import type { PluginCommand } from './plugin.ts'
import { builtinCommandFiles } from './loader.ts'

// Modules a command needs are imported when it runs, not here: `ledger --help` must not load
// every plugin, the kernel, ajv and the crypto (issue 15: 0.8 s -> under 0.25 s).

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')

import { UsageError } from './errors.ts'

export { UsageError }

/** `ledger --version`: the package version and the protocol number peers compare */
export function versionText (): string {
  const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }
  return `ledger-node ${pkg.version} (protocol ${PROTOCOL_VERSION}, node ${process.versions.node})`
}

interface RunArgs {
  config?: string
  network?: string
  'data-dir'?: string
  host?: string
  port?: number
  'dashboard-host'?: string
  'dashboard-port'?: number
  'entropy-port'?: number
  'entropy-url'?: string
  'p2p-port'?: number
  'p2p-host'?: string
  peer?: string[]
  mine?: boolean
  'log-level'?: string
  'log-format'?: string
  'status-interval'?: number
  core?: string[]
}

/** The config file to use: --config, else ./ledger.config.ts, else the project's own. */
function configFile (explicit: string | undefined): string {
  if (explicit !== undefined) return path.resolve(explicit)
  const local = path.resolve('ledger.config.ts')
  return existsSync(local) ? local : path.join(PROJECT_ROOT, 'ledger.config.ts')
}

function portOk (name: string, v: number | undefined): void {
  if (v !== undefined && (!Number.isInteger(v) || v < 0 || v > 65535)) throw new UsageError(`--${name} must be a port number 0-65535`)
}

/** CLI flags as a config overlay (section keys are plugin names). */
export function flagOverrides (a: RunArgs): Record<string, unknown> {
  for (const k of ['port', 'dashboard-port', 'entropy-port', 'p2p-port'] as const) portOk(k, a[k])
  const o: Record<string, unknown> = {}
  if (a.network !== undefined) o.network = a.network
  if (a['data-dir'] !== undefined) o.dataDir = a['data-dir']
  if (a['log-level'] !== undefined) o.logLevel = a['log-level']
  if (a['log-format'] !== undefined) o.logFormat = a['log-format']
  if (a['status-interval'] !== undefined) o.statusIntervalSeconds = a['status-interval']
  const section = (name: string, values: Record<string, unknown>): void => {
    const defined = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined))
    if (Object.keys(defined).length > 0) o[name] = defined
  }
  section('http', { host: a.host, port: a.port })
  section('dashboard', { host: a['dashboard-host'], port: a['dashboard-port'] })
  section('entropy-aggregator', { port: a['entropy-port'], url: a['entropy-url'] })
  section('p2p', { host: a['p2p-host'], port: a['p2p-port'], peers: a.peer !== undefined && a.peer.length > 0 ? a.peer : undefined })
  if (a.mine === false) o.miner = { enabled: false }
  return o
}

const CORE_FLAG_HELP = 'cores per family, over the config\'s `cores`: sha3=wasm|js, pow=wasm|wasm-simd|wasm-scalar|js, vm=wasm|js, mldsa=native|noble|wasm, bls=mcl|noble (e.g. --core sha3=js,pow=js)'

export async function buildNodeConfig (a: RunArgs): Promise<NodeConfig> {
  const { loadConfigFile, resolveConfig } = await import('./config.ts')
  const file = configFile(a.config)
  const user: UserConfig = await loadConfigFile(file)
  const overrides = flagOverrides(a)
  if (a.core !== undefined && a.core.length > 0) overrides.cores = await coreFlag(a.core)
  return resolveConfig(user, overrides, path.dirname(file))
}

/** `--core sha3=js,pow=wasm` as a `cores` overlay: families it names win over the config's. */
async function coreFlag (values: string[]): Promise<Record<string, string>> {
  const { parseCoreFlag, CoreSelectionError } = await import('../cores/cores.ts')
  try {
    return parseCoreFlag(values) as Record<string, string>
  } catch (err) {
    if (err instanceof CoreSelectionError) throw new UsageError(err.message)
    throw err
  }
}

async function runNode (a: RunArgs): Promise<void> {
  const config = await buildNodeConfig(a)
  const [{ createLogger, defaultLogFormat }, { Kernel }, { watchForStop }, { removeCreatedSince, snapshotDataDir }, { formatSummary, startNotifier, startupSummary }] = await Promise.all([
    import('./logger.ts'), import('./kernel.ts'), import('./lifecycle.ts'), import('./data-dir-guard.ts'), import('./notifier.ts')
  ])
  const format = config.logFormat ?? defaultLogFormat()
  const logger = createLogger(config.logLevel, undefined, format)
  const kernel = new Kernel(config, logger)
  let stopping = false
  const shutdown = (reason: StopReason): void => {
    if (stopping) return
    stopping = true
    logger.info({ reason }, 'shutting down')
    const hard = setTimeout(() => { logger.error('shutdown took too long; exiting'); process.exit(1) }, 10_000)
    hard.unref()
    kernel.stop().then(() => { logger.flush?.(); process.exit(0) }, (err: unknown) => { logger.error({ err }, 'shutdown failed'); process.exit(1) })
  }
  watchForStop(shutdown)
  const before = snapshotDataDir(config.dataDir)
  try {
    await kernel.boot()
    await kernel.start()
  } catch (err) {
    // a failed start leaves nothing half-made behind for the next start to reuse
    await kernel.stop()
    const removed = removeCreatedSince(before)
    if (removed.length > 0) logger.info({ removed }, 'start failed: removed what this start created in the data dir')
    logger.flush?.()
    throw err
  }
  if (stopping) return
  const summary = startupSummary(kernel)
  // JSON logs carry it as fields for machines; a terminal gets it as lines to read
  if (format === 'json') logger.info({ summary }, 'node running')
  else logger.info(formatSummary(summary))
  if (config.statusIntervalSeconds > 0) startNotifier(kernel, logger, config.statusIntervalSeconds * 1000)
}

const runOptions = (y: Argv): Argv<RunArgs> => y
  .option('config', { type: 'string', describe: 'node profile file (default ./ledger.config.ts)' })
  .option('network', { type: 'string', choices: ['testnet', 'mainnet', 'devnet'], describe: 'chain parameters and genesis [default: testnet]' })
  .option('data-dir', { type: 'string', describe: 'all node state [default: ~/.ledger/<network>]' })
  .option('host', { type: 'string', describe: 'public server address: explorer, messenger, admin, playground [default: 127.0.0.1]' })
  .option('port', { type: 'number', describe: 'public server port [default: 8081]' })
  .option('dashboard-host', { type: 'string', describe: 'node-local dashboard address [default: 127.0.0.1]' })
  .option('dashboard-port', { type: 'number', describe: 'dashboard port [default: 8080]' })
  .option('entropy-port', { type: 'number', describe: 'built-in entropy aggregator port [default: 8420]' })
  .option('entropy-url', { type: 'string', describe: 'use an external entropy source (SPEC 4.6 REST) instead of the built-in aggregator' })
  .option('p2p-port', { type: 'number', describe: 'peer-to-peer listener port [default: 18333 testnet, 8333 mainnet]' })
  .option('p2p-host', { type: 'string', describe: 'peer-to-peer listen address (an IP) [default: 0.0.0.0]' })
  .option('peer', { type: 'string', array: true, describe: 'bootstrap peer host:port or multiaddr (repeatable)' })
  .option('mine', { type: 'boolean', describe: 'mine blocks; --no-mine runs a relay / explorer node [default: true]' })
  .option('log-level', { type: 'string', choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], describe: 'log level [default: info]' })
  .option('log-format', { type: 'string', choices: ['json', 'pretty'], describe: 'pretty: one line per entry; json: one object per line [default: pretty on a terminal, else json]' })
  .option('status-interval', { type: 'number', describe: 'seconds between status lines (height, peers, hash rate, mempool, sync); 0 turns them off [default: 30]' })
  .option('core', { type: 'string', array: true, describe: CORE_FLAG_HELP }) as Argv<RunArgs>

/** Builds the command line: the kernel's commands, then `pluginCommands` (see builtinCommands). */
export function buildCli (argv: string[], pluginCommands: readonly PluginCommand[] = []): Argv {
  let cli = yargs(argv)
    .scriptName('ledger')
    .usage('$0 <command> [options]')
    .command('run', 'run a node: mines, serves every surface', runOptions, async (a) => { await runNode(a) })
    .command('bench', 'benchmark the WASM and JS cores against their anchors', (y) => y
      .option('only', { type: 'string', describe: 'comma-separated families: pow,sha3,mldsa,vm,block,sync,http,attest,cli' })
      .option('json', { type: 'string', describe: 'also write the results as JSON to this file' })
      .option('markdown', { type: 'string', describe: 'also rewrite the measured part of this Markdown file (BENCHMARKS.md), keeping the prose around it' })
      .option('runs', { type: 'number', default: 5, describe: 'measured runs per figure (min / median / max)' })
      .option('quick', { type: 'boolean', default: false, describe: 'tiny sizes (a smoke run, numbers meaningless)' }),
    async (a) => {
      const { runBench, BenchUsageError } = await import('../../bench/index.ts')
      try {
        await runBench({ only: a.only?.split(',').map((s) => s.trim()).filter((s) => s.length > 0), json: a.json, markdown: a.markdown, runs: a.runs, quick: a.quick })
      } catch (err) {
        if (err instanceof BenchUsageError) throw new UsageError(err.message)
        throw err
      }
    })
    .command('testbed', 'run a network of real nodes on loopback through shaped links, play a scenario, report its figures (docs/testbed.md)', (y) => y
      .option('scenario', { type: 'string', describe: 'steady, partition, churn, late-join, hashrate, or a scenario JSON file' })
      .option('nodes', { type: 'number', describe: 'nodes (2-12) [default: the scenario\'s, else 6]' })
      .option('miners', { type: 'number', describe: 'how many of them mine, one thread each' })
      .option('topology', { type: 'string', describe: 'line, ring, star, full or random:<degree>' })
      .option('latency', { type: 'number', describe: 'one-way link latency, ms' })
      .option('jitter', { type: 'number', describe: 'latency spread ±, ms' })
      .option('bandwidth', { type: 'string', describe: 'per link each way, e.g. 10mbit, 2MB' })
      .option('seed', { type: 'number', describe: 'seed of every random choice (topology, jitter, load)' })
      .option('duration', { type: 'number', describe: 'seconds the steps run before the network settles' })
      .option('out', { type: 'string', describe: 'report directory [default: ./testbed-reports/<scenario>-<time>]' })
      .option('keep', { type: 'boolean', default: false, describe: 'keep the nodes\' data dirs' })
      .option('report', { type: 'string', describe: 'recompute the figures and HTML of this report.json instead of running' }),
    async (a) => {
      const { runTestbed, TestbedUsageError } = await import('../../testbed/index.ts')
      try { await runTestbed(a) } catch (err) {
        if (err instanceof TestbedUsageError) throw new UsageError(err.message)
        throw err
      }
    })
    .command('verify', "re-verify a node's chain over its public HTTP API (PoW, difficulty, merkle roots, attestations, beacon signatures)", (y) => y
      .option('node', { type: 'string', demandOption: true, describe: "the node's public base URL, e.g. http://127.0.0.1:8080" })
      .option('from', { type: 'number', describe: 'first height to verify [default: 1]' })
      .option('to', { type: 'number', describe: "last height to verify [default: the node's tip]" })
      .option('core', { type: 'string', array: true, describe: 'cores that hash and verify, as for `ledger run` (e.g. --core bls=noble,sha3=js)' }),
    async (a) => {
      const cores = a.core !== undefined && a.core.length > 0 ? await coreFlag(a.core) : {}
      for (const k of ['from', 'to'] as const) {
        const v = a[k]
        if (v !== undefined && (!Number.isSafeInteger(v) || v < 0)) throw new UsageError(`--${k} must be a block height (a non-negative integer)`)
      }
      const { runVerify, VerifySourceError } = await import('./cli/verify.ts')
      const tty = process.stderr.isTTY
      try {
        process.exitCode = await runVerify({
          node: a.node,
          from: a.from,
          to: a.to,
          cores,
          out: (line) => { if (tty) process.stderr.write('\n'); console.log(line) },
          progress: (line) => { process.stderr.write(tty ? `\r${line}\u001b[K` : `${line}\n`) }
        })
      } catch (err) {
        if (err instanceof VerifySourceError) throw new UsageError(err.message)
        throw err
      }
    })
    .command('keygen', 'write a new ML-DSA-87 wallet file', (y) => y
      .option('out', { type: 'string', demandOption: true, describe: 'wallet file to write (mode 0600)' })
      .option('force', { type: 'boolean', default: false, describe: 'overwrite an existing file' })
      .option('parents', { type: 'boolean', default: false, describe: 'create missing parent directories (mode 0700)' }),
    async (a) => {
      const file = path.resolve(a.out)
      if (existsSync(file) && !a.force) throw new UsageError(`${file} exists; pass --force to overwrite`)
      // a typo in the path must not silently become a new directory tree holding a key
      const dir = path.dirname(file)
      if (!a.parents && !existsSync(dir)) throw new UsageError(`directory ${dir} does not exist; create it first or pass --parents`)
      if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UsageError(`${dir} is not a directory`)
      const [{ generateWallet }, { writeWalletFile }] = await Promise.all([import('../chain/wallet.ts'), import('./wallet-file.ts')])
      const w = generateWallet()
      writeWalletFile(file, w)
      console.log(JSON.stringify({ address: w.address, vm_address: w.vmAddress, file }, null, 2))
    })
  for (const command of pluginCommands) cli = cli.command(command)
  return walletCommands(cli)
    .demandCommand(1, `name a command: ${['run', 'bench', 'testbed', 'verify', 'keygen', 'wallet', 'tx', ...pluginCommands.map(commandName)].join(', ')}`)
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

/** The commands of the built-in plugins, from each one's small `commands.ts` (what its
 *  manifest re-exports as `commands`): `ledger --help` must not load the plugins themselves. */
export async function builtinCommands (): Promise<PluginCommand[]> {
  const out: PluginCommand[] = []
  for (const file of builtinCommandFiles()) {
    const mod = await import(pathToFileURL(file).href) as { commands?: readonly PluginCommand[] }
    out.push(...(mod.commands ?? []))
  }
  return out
}

export async function main (argv = hideBin(process.argv)): Promise<void> {
  try {
    await buildCli(argv, await builtinCommands()).parseAsync()
  } catch (err) {
    if (err instanceof UsageError || err instanceof WalletCliError || await isUserFixable(err)) {
      console.error(`ledger: ${(err as Error).message}`)
      process.exit(2)
    }
    console.error(`ledger: ${(err as Error).message ?? String(err)}`)
    if (process.env.LEDGER_DEBUG !== undefined) console.error(err)
    process.exit(1)
  }
}
