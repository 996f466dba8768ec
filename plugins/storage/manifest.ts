// Storage: the chain database (blocks, state, indexes, receipts) and the admin database
// (every write synchronous) under the data dir, plus the wallet store.
import path from 'node:path'
import { definePlugin } from '../../core/kernel/plugin.ts'
import { commands } from './commands.ts'
import { FileWalletStore } from './wallet-store.ts'
import { ADMIN_DB_MEMORY, RocksStore } from './rocks-store.ts'

export default definePlugin({
  name: 'storage',
  description: 'RocksDB chain and admin databases, wallet files',
  apiVersion: '1.0',
  provides: ['chainDb', 'adminDb', 'wallets'],
  needs: [],
  commands,
  async register (ctx) {
    const dataDir = ctx.node.dataDir
    const chainDb = await RocksStore.open(path.join(dataDir, 'chain'))
    const adminDb = await RocksStore.open(path.join(dataDir, 'admin'), ADMIN_DB_MEMORY)
    ctx.provide('chainDb', chainDb)
    ctx.provide('adminDb', adminDb)
    // a singleton made on first use: a node whose plugins hold no wallet makes no wallets dir
    ctx.provideFactory('wallets', () => new FileWalletStore(path.join(dataDir, 'wallets')))
    ctx.logger.info({ chain: chainDb.location, admin: adminDb.location }, 'databases open')
    ctx.onClose(async () => {
      await chainDb.close()
      await adminDb.close()
    })
  }
})
