// The follow crash probe's indexer, modelled on examples/chain-indexer-plugin: balances and
// transfers per address in SQLite (node:sqlite), each notification applied in one transaction
// with the cursor it moves to. Unlike the example, `transfers` has no unique key, so a block
// applied twice shows up as duplicated rows in the comparison instead of stalling the follower
// on a constraint error; and `recompute` builds the same tables from a list of blocks, the
// reference the probe compares against.
import { DatabaseSync } from 'node:sqlite'
import { coinToBohm } from '../../core/chain/money.ts'
import { CONTRACT_RECIPIENT, GENESIS_SENDER, MINING_REWARD_SENDER } from '../../core/chain/types.ts'
import type { Block } from '../../core/chain/types.ts'
import type { BlockRef } from '../../core/kernel/hooks.ts'
import type { FollowNotification } from '../../core/kernel/follow.ts'

const SCHEMA = `
CREATE TABLE IF NOT EXISTS balances (address TEXT PRIMARY KEY, bohm TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS transfers (tx_id TEXT NOT NULL, height INTEGER NOT NULL, block_hash TEXT NOT NULL, sender TEXT NOT NULL, recipient TEXT NOT NULL, amount TEXT NOT NULL, fee TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS transfers_tx ON transfers (tx_id, block_hash);
CREATE TABLE IF NOT EXISTS cursor (id INTEGER PRIMARY KEY CHECK (id = 0), height INTEGER, hash TEXT);
`

/** the index as plain rows: balances by address, and transfers as row keys with how often each occurs */
export interface IndexTables { balances: Map<string, string>; transfers: Map<string, number> }

function movements (tx: Block['transactions'][number]): { debit: bigint; credit: bigint } {
  const amount = coinToBohm(tx.amount)
  const minted = tx.sender === MINING_REWARD_SENDER || tx.sender === GENESIS_SENDER
  return { debit: minted ? 0n : amount + coinToBohm(tx.fee), credit: tx.recipient === CONTRACT_RECIPIENT ? 0n : amount }
}

const transferKey = (tx: Block['transactions'][number], block: Pick<Block, 'height' | 'hash'>): string =>
  [tx.transaction_id, block.height, block.hash, tx.sender, tx.recipient, String(tx.amount), String(tx.fee)].join('|')

export class FollowIndex {
  readonly #db: DatabaseSync

  constructor (file: string) {
    this.#db = new DatabaseSync(file)
    this.#db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;')
    this.#db.exec(SCHEMA)
  }

  cursor (): BlockRef | null {
    const row = this.#db.prepare('SELECT height, hash FROM cursor WHERE id = 0').get() as { height: number | null; hash: string | null } | undefined
    return row === undefined || row.height === null || row.hash === null ? null : { height: row.height, hash: row.hash }
  }

  /** one notification and the cursor it moves to, in one transaction */
  apply (n: FollowNotification): void {
    const sign = n.kind === 'commit' ? 1n : -1n
    this.#db.exec('BEGIN')
    try {
      for (const tx of n.kind === 'commit' ? n.block.transactions : [...n.block.transactions].reverse()) {
        const { debit, credit } = movements(tx)
        if (debit !== 0n) this.#add(tx.sender, -sign * debit)
        if (credit !== 0n) this.#add(tx.recipient, sign * credit)
        if (n.kind === 'commit') {
          this.#db.prepare('INSERT INTO transfers (tx_id, height, block_hash, sender, recipient, amount, fee) VALUES (?, ?, ?, ?, ?, ?, ?)')
            .run(tx.transaction_id, n.block.height, n.block.hash, tx.sender, tx.recipient, String(tx.amount), String(tx.fee))
        } else {
          // one row per revert: a block committed twice keeps its second copy, and shows as a duplicate
          this.#db.prepare('DELETE FROM transfers WHERE rowid IN (SELECT rowid FROM transfers WHERE tx_id = ? AND block_hash = ? LIMIT 1)').run(tx.transaction_id, n.block.hash)
        }
      }
      this.#db.prepare('INSERT INTO cursor (id, height, hash) VALUES (0, ?, ?) ON CONFLICT (id) DO UPDATE SET height = excluded.height, hash = excluded.hash')
        .run(n.cursor?.height ?? null, n.cursor?.hash ?? null)
      this.#db.exec('COMMIT')
    } catch (err) {
      this.#db.exec('ROLLBACK')
      throw err
    }
  }

  #add (address: string, delta: bigint): void {
    const row = this.#db.prepare('SELECT bohm FROM balances WHERE address = ?').get(address) as { bohm: string } | undefined
    const next = BigInt(row?.bohm ?? '0') + delta
    if (next === 0n) this.#db.prepare('DELETE FROM balances WHERE address = ?').run(address)
    else this.#db.prepare('INSERT INTO balances (address, bohm) VALUES (?, ?) ON CONFLICT (address) DO UPDATE SET bohm = excluded.bohm').run(address, next.toString())
  }

  tables (): IndexTables {
    const balances = new Map((this.#db.prepare('SELECT address, bohm FROM balances').all() as Array<{ address: string; bohm: string }>).map((r) => [r.address, r.bohm]))
    const transfers = new Map<string, number>()
    const rows = this.#db.prepare('SELECT tx_id, height, block_hash, sender, recipient, amount, fee FROM transfers').all() as Array<{ tx_id: string; height: number; block_hash: string; sender: string; recipient: string; amount: string; fee: string }>
    for (const r of rows) {
      const key = [r.tx_id, r.height, r.block_hash, r.sender, r.recipient, r.amount, r.fee].join('|')
      transfers.set(key, (transfers.get(key) ?? 0) + 1)
    }
    return { balances, transfers }
  }

  close (): void { this.#db.close() }
}

/** the tables an indexer that saw exactly `blocks` (the best chain, in order) holds */
export function recompute (blocks: Iterable<Block>): IndexTables {
  const bohm = new Map<string, bigint>()
  const transfers = new Map<string, number>()
  const add = (a: string, d: bigint): void => { bohm.set(a, (bohm.get(a) ?? 0n) + d) }
  for (const block of blocks) {
    for (const tx of block.transactions) {
      const { debit, credit } = movements(tx)
      if (debit !== 0n) add(tx.sender, -debit)
      if (credit !== 0n) add(tx.recipient, credit)
      const key = transferKey(tx, block)
      transfers.set(key, (transfers.get(key) ?? 0) + 1)
    }
  }
  const balances = new Map([...bohm].filter(([, v]) => v !== 0n).map(([a, v]) => [a, v.toString()]))
  return { balances, transfers }
}

export interface IndexComparison { rows: number; missed: number; duplicated: number; wrongBalances: number }

/** `actual` against `expected`: rows of `expected` absent from `actual`, rows too many (a row twice, or one that should have been reverted), balances that differ */
export function compareIndex (actual: IndexTables, expected: IndexTables): IndexComparison {
  let missed = 0
  let duplicated = 0
  for (const [key, n] of expected.transfers) missed += Math.max(0, n - (actual.transfers.get(key) ?? 0))
  for (const [key, n] of actual.transfers) duplicated += Math.max(0, n - (expected.transfers.get(key) ?? 0))
  let wrongBalances = 0
  for (const a of new Set([...expected.balances.keys(), ...actual.balances.keys()])) if (expected.balances.get(a) !== actual.balances.get(a)) wrongBalances++
  let rows = expected.balances.size
  for (const n of expected.transfers.values()) rows += n
  return { rows, missed, duplicated, wrongBalances }
}
