// The miner's command-line surface (manifest `flags`): `ledger run --no-mine`. Kept apart from
// the manifest's implementation imports so `ledger --help` loads only this file.
import type { PluginFlag } from '../../core/kernel/plugin.ts'

export const flags: readonly PluginFlag[] = [
  {
    name: 'mine',
    key: 'enabled',
    option: { type: 'boolean', describe: 'mine blocks; --no-mine runs a relay / explorer node [default: true]' },
    // `--mine` leaves the config's choice; only `--no-mine` turns mining off
    toConfig: (v) => v === false ? false : undefined
  }
]
