// The entropy aggregator's command-line surface (manifest `commands` and `flags`): `ledger entropy`, the aggregator
// alone behind the same REST contract. Kept apart from the manifest's implementation imports
// so `ledger --help` loads only this file; the handler imports what it runs.
import { defineCommand } from '../../core/kernel/plugin.ts'
import type { PluginFlag } from '../../core/kernel/plugin.ts'
import { UsageError } from '../../core/kernel/errors.ts'
import type { NetworkName } from '../../core/chain/params.ts'

interface EntropyArgs { port: number; host: string; network: string; source?: string[]; 'min-quorum'?: number }

const entropyCommand = defineCommand<EntropyArgs>({
  command: 'entropy',
  describe: 'run the entropy aggregator alone (same REST contract)',
  builder: (y) => y
    .option('port', { type: 'number', default: 8420, describe: 'listen port' })
    .option('host', { type: 'string', default: '127.0.0.1', describe: 'listen address' })
    .option('network', { type: 'string', choices: ['testnet', 'mainnet', 'devnet'], default: 'testnet', describe: 'which trust list the sources must satisfy' })
    .option('source', { type: 'string', array: true, describe: 'upstream sources (self-hosted, beacon-default, beacon-fastnet, beacon-devnet)' })
    .option('min-quorum', { type: 'number', describe: 'sources that must answer before bytes are served' }),
  async handler (a) {
    if (!Number.isInteger(a.port) || a.port < 0 || a.port > 65535) throw new UsageError('--port must be a port number 0-65535')
    const { runEntropyServer } = await import('./standalone.ts')
    await runEntropyServer({ host: a.host, port: a.port, network: a.network as NetworkName, sources: a.source, minQuorum: a['min-quorum'] })
  }
})

export const commands = [entropyCommand]

/** `ledger run` options for the aggregator inside a node */
export const flags: readonly PluginFlag[] = [
  { name: 'entropy-port', key: 'port', port: true, option: { type: 'number', describe: 'built-in entropy aggregator port [default: 8420]' } },
  { name: 'entropy-url', key: 'url', option: { type: 'string', describe: 'use an external entropy source (SPEC 4.6 REST) instead of the built-in aggregator' } }
]
