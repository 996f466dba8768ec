// The dashboard's command-line surface (manifest `flags`): `ledger run --dashboard-host/-port`.
// Kept apart from the manifest's implementation imports so `ledger --help` loads only this file.
import type { PluginFlag } from '../../core/kernel/plugin.ts'

export const flags: readonly PluginFlag[] = [
  { name: 'dashboard-host', key: 'host', option: { type: 'string', describe: 'node-local dashboard address [default: 127.0.0.1]' } },
  { name: 'dashboard-port', key: 'port', port: true, option: { type: 'number', describe: 'dashboard port [default: 8080]' } }
]
