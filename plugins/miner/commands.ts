// The miner's command-line surface (manifest `flags`): `ledger run --no-mine, --mine-threads,
// --mine-duty, --miner-wallet, --miner-sync-wait`. Kept apart from
// the manifest's implementation imports so `ledger --help` loads only this file.
import path from 'node:path'
import type { PluginFlag } from '../../core/kernel/plugin.ts'
import { UsageError } from '../../core/kernel/errors.ts'
import { MAX_DUTY, MIN_DUTY } from '../../core/pow/duty.ts'

export const flags: readonly PluginFlag[] = [
  {
    name: 'mine',
    key: 'enabled',
    option: { type: 'boolean', describe: 'mine blocks; --no-mine runs a relay / explorer node [default: true]' },
    // `--mine` leaves the config's choice; only `--no-mine` turns mining off
    toConfig: (v) => v === false ? false : undefined
  },
  {
    name: 'mine-threads',
    key: 'threads',
    option: { type: 'number', describe: 'PoW worker threads [default: one per core but one, at least 1]' },
    toConfig: (v) => nonNegativeInteger('mine-threads', v)
  },
  {
    name: 'mine-duty',
    key: 'duty',
    option: { type: 'number', describe: 'percent of each mining thread\'s time spent hashing (1-100); it rests the rest, leaving CPU to the node and the machine [default: 100]' },
    toConfig: (v) => dutyPercent('mine-duty', v)
  },
  {
    name: 'miner-wallet',
    key: 'walletFile',
    option: { type: 'string', describe: 'pay mined blocks to this wallet file\'s address (it may be encrypted: only its address is read) [default: <data dir>/wallets/node.json]' },
    // relative to where the command was typed, not to the config file
    toConfig: (v) => typeof v === 'string' ? path.resolve(v) : undefined
  },
  {
    name: 'miner-sync-wait',
    key: 'syncWaitSeconds',
    option: { type: 'number', describe: 'seconds a miner with --peer waits to hear from its peers before mining its own tip; 0: no wait [default: 30, devnet 0]' },
    toConfig: (v) => nonNegativeInteger('miner-sync-wait', v)
  }
]

function nonNegativeInteger (name: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new UsageError(`--${name} must be a non-negative integer`)
  return v
}

function dutyPercent (name: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < MIN_DUTY || v > MAX_DUTY) throw new UsageError(`--${name} must be an integer percent from ${MIN_DUTY} to ${MAX_DUTY}`)
  return v
}
