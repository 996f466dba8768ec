// The peer-to-peer plugin's command-line surface (manifest `flags`): `ledger run --p2p-port,
// --p2p-host, --peer`. Kept apart from the manifest's implementation imports so `ledger --help`
// loads only this file.
import type { PluginFlag } from '../../core/kernel/plugin.ts'

export const flags: readonly PluginFlag[] = [
  { name: 'p2p-port', key: 'port', port: true, option: { type: 'number', describe: 'peer-to-peer listener port [default: 18333 testnet, 8333 mainnet, 28333 devnet]' } },
  { name: 'p2p-host', key: 'host', option: { type: 'string', describe: 'peer-to-peer listen address (an IP) [default: 0.0.0.0]' } },
  {
    name: 'peer',
    key: 'peers',
    option: { type: 'string', array: true, describe: 'bootstrap peer host:port or multiaddr (repeatable)' },
    // `--peer` with no value adds nothing: the config's peers stay
    toConfig: (v) => Array.isArray(v) && v.length > 0 ? v : undefined
  }
]
