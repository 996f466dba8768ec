// `ledger resync`: drop the chain database (blocks, state, indexes, receipts) and keep admin
// state, wallets, keys. It refuses while a node holds the data dir (deleting a live chain
// under a running node loses it), and asks first: with no peer to sync from, a node's chain
// exists nowhere else.
import path from 'node:path'
import { existsSync, rmSync } from 'node:fs'
import { createInterface } from 'node:readline/promises'
import { DataDirInUse } from '../../core/kernel/data-dir-lock.ts'

export class ResyncRefused extends Error {}

/** opens and closes the store to learn whether a running node holds its lock */
export type LockProbe = (dir: string) => Promise<{ release(): Promise<void> }>

export interface ResyncOptions {
  dataDir: string
  yes: boolean
  probe: LockProbe
  input?: NodeJS.ReadableStream & { isTTY?: boolean }
  output?: NodeJS.WritableStream
}

export const RESYNC_WARNING = 'A node without peers loses its only copy of the chain: blocks it mined, balances and messages ' +
  'exist nowhere else and cannot be re-synced. Keep peers (--peer) or a copy of the data dir before you go on.'

export async function resync (o: ResyncOptions): Promise<string> {
  const dir = path.resolve(o.dataDir)
  const chainDir = path.join(dir, 'chain')
  if (!existsSync(chainDir)) return `nothing to do: ${chainDir} does not exist`
  let lock: { release(): Promise<void> }
  try {
    lock = await o.probe(chainDir)
  } catch (err) {
    const msg = (err as Error).message
    if (err instanceof DataDirInUse) throw new ResyncRefused(`refusing: a running node holds ${dir} (pid ${err.owner.pid}, '${err.owner.command}'); stop it first, then resync`)
    if (/in use|lock/i.test(msg)) throw new ResyncRefused(`refusing: a running node holds ${dir} (stop it first, then resync)`)
    throw new ResyncRefused(`refusing: cannot open ${chainDir}: ${msg}`)
  }
  try {
    if (!o.yes) {
      const input = o.input ?? process.stdin
      const output = o.output ?? process.stderr
      if (input.isTTY !== true) throw new ResyncRefused(`this deletes ${chainDir}. ${RESYNC_WARNING} Pass --yes to confirm when stdin is not a terminal.`)
      const rl = createInterface({ input, output })
      try {
        const answer = await rl.question(`This deletes ${chainDir} (admin state, wallets and keys are kept).\n${RESYNC_WARNING}\nType "yes" to delete: `)
        if (answer.trim().toLowerCase() !== 'yes') throw new ResyncRefused('not confirmed; nothing was deleted')
      } finally {
        rl.close()
      }
    }
    // deleted while this process still holds the lock, so no node can start on it meanwhile
    rmSync(chainDir, { recursive: true, force: true })
  } finally {
    await lock.release().catch(() => {})
  }
  return `removed ${chainDir}; kept ${path.join(dir, 'admin')} and ${path.join(dir, 'wallets')}. The next 'ledger run' re-syncs the chain from its peers.`
}
