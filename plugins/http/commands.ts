// The public server's command-line surface (manifest `flags`): `ledger run --host/--port`.
// Kept apart from the manifest's implementation imports so `ledger --help` loads only this file.
import type { PluginFlag } from '../../core/kernel/plugin.ts'

export const flags: readonly PluginFlag[] = [
  { name: 'host', key: 'host', option: { type: 'string', describe: 'public server address: explorer, messenger, admin, playground [default: 127.0.0.1]' } },
  { name: 'port', key: 'port', port: true, option: { type: 'number', describe: 'public server port [default: 8081]' } }
]
