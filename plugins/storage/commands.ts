// The storage plugin's command (manifest `commands`): `ledger resync`. Kept apart from the
// manifest's implementation imports so `ledger --help` loads only this file; the handler
// imports what it runs.
import path from 'node:path'
import { defineCommand } from '../../core/kernel/plugin.ts'
import { UsageError } from '../../core/kernel/errors.ts'
import type { NetworkName } from '../../core/chain/params.ts'

interface ResyncArgs { network: string; 'data-dir'?: string; yes: boolean }

const resyncCommand = defineCommand<ResyncArgs>({
  command: 'resync',
  describe: 'drop chain data only; admin state and wallets are kept',
  builder: (y) => y
    .option('network', { type: 'string', choices: ['testnet', 'mainnet', 'devnet'], default: 'testnet' })
    .option('data-dir', { type: 'string', describe: 'node data dir [default: ~/.ledger/<network>]' })
    .option('yes', { type: 'boolean', default: false, describe: 'do not ask for confirmation' }),
  async handler (a) {
    const [{ defaultDataDir }, { resync, ResyncRefused }, { RocksStore }] = await Promise.all([
      import('../../core/kernel/config.ts'), import('./resync.ts'), import('./rocks-store.ts')
    ])
    const dir = path.resolve(a['data-dir'] ?? defaultDataDir(a.network as NetworkName))
    try {
      console.log(await resync({ dataDir: dir, yes: a.yes, probe: async (d) => { const db = await RocksStore.open(d); return { release: () => db.close() } } }))
    } catch (err) {
      if (err instanceof ResyncRefused) throw new UsageError(err.message)
      throw err
    }
  }
})

export const commands = [resyncCommand]
