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
    const [{ defaultDataDir }, { resync, ResyncRefused }, { RocksStore }, { lockDataDir }] = await Promise.all([
      import('../../core/kernel/config.ts'), import('./resync.ts'), import('./rocks-store.ts'), import('../../core/kernel/data-dir-lock.ts')
    ])
    const dir = path.resolve(a['data-dir'] ?? defaultDataDir(a.network as NetworkName))
    // the data dir's lock (issue 31 item 1), then RocksDB's own: a node of an older version
    // holds only the latter
    const probe = async (chainDir: string): Promise<{ release(): Promise<void> }> => {
      const owner = lockDataDir(dir, 'ledger resync')
      try {
        // closed at once: the chain is deleted under the data dir's lock alone, so RocksDB
        // writes nothing into it afterwards
        await (await RocksStore.open(chainDir)).close()
        return { release: async () => { owner.release() } }
      } catch (err) {
        owner.release()
        throw err
      }
    }
    try {
      console.log(await resync({ dataDir: dir, yes: a.yes, probe }))
    } catch (err) {
      if (err instanceof ResyncRefused) throw new UsageError(err.message)
      throw err
    }
  }
})

export const commands = [resyncCommand]
