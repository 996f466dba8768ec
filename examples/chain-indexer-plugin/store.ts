// The index in SQLite (node:sqlite): balances and transfers per address, and the follower's
// cursor in the same database. Each notification is applied in one transaction together with
// the cursor it moves to, so a crash leaves either all of a block or none of it, and the
// follower resumes exactly after the last block applied (no block twice, none missed).
import { DatabaseSync } from 'node:sqlite'
import { coinToBohm, CONTRACT_RECIPIENT, GENESIS_SENDER, MINING_REWARD_SENDER } from 'ledger-node/plugin'
import type { Block, BlockRef, FollowNotification } from 'ledger-node/plugin'

export interface Transfer { tx_id: string; height: number; block_hash: string; sender: string; recipient: string; amount: string; fee: string }

const SCHEMA = `
CREATE TABLE IF NOT EXISTS balances (address TEXT PRIMARY KEY, bohm TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS transfers (tx_id TEXT PRIMARY KEY, height INTEGER NOT NULL, block_hash TEXT NOT NULL, sender TEXT NOT NULL, recipient TEXT NOT NULL, amount TEXT NOT NULL, fee TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS transfers_sender ON transfers (sender, height);
CREATE INDEX IF NOT EXISTS transfers_recipient ON transfers (recipient, height);
CREATE TABLE IF NOT EXISTS cursor (id INTEGER PRIMARY KEY CHECK (id = 0), height INTEGER, hash TEXT);
`

/** what a transaction moves, in bohm: `debit` off the sender, `credit` to the recipient */
function movements (tx: Block['transactions'][number]): { debit: bigint; credit: bigint } {
  const amount = coinToBohm(tx.amount)
  const fee = coinToBohm(tx.fee)
  const minted = tx.sender === MINING_REWARD_SENDER || tx.sender === GENESIS_SENDER
  return { debit: minted ? 0n : amount + fee, credit: tx.recipient === CONTRACT_RECIPIENT ? 0n : amount }
}

export class IndexStore {
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
      const txs = n.kind === 'commit' ? n.block.transactions : [...n.block.transactions].reverse()
      for (const tx of txs) {
        const { debit, credit } = movements(tx)
        if (debit !== 0n) this.#add(tx.sender, -sign * debit)
        if (credit !== 0n) this.#add(tx.recipient, sign * credit)
        if (n.kind === 'commit') {
          this.#db.prepare('INSERT INTO transfers (tx_id, height, block_hash, sender, recipient, amount, fee) VALUES (?, ?, ?, ?, ?, ?, ?)')
            .run(tx.transaction_id, n.block.height, n.block.hash, tx.sender, tx.recipient, String(tx.amount), String(tx.fee))
        } else {
          this.#db.prepare('DELETE FROM transfers WHERE tx_id = ? AND block_hash = ?').run(tx.transaction_id, n.block.hash)
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

  balance (address: string): bigint {
    const row = this.#db.prepare('SELECT bohm FROM balances WHERE address = ?').get(address) as { bohm: string } | undefined
    return BigInt(row?.bohm ?? '0')
  }

  /** every balance, for comparisons */
  balances (): Record<string, string> {
    const rows = this.#db.prepare('SELECT address, bohm FROM balances ORDER BY address').all() as Array<{ address: string; bohm: string }>
    return Object.fromEntries(rows.map((r) => [r.address, r.bohm]))
  }

  /** an address's transfers, newest first */
  transfers (address: string, limit: number): Transfer[] {
    return this.#db.prepare('SELECT tx_id, height, block_hash, sender, recipient, amount, fee FROM transfers WHERE sender = ? OR recipient = ? ORDER BY height DESC, tx_id LIMIT ?')
      .all(address, address, limit) as unknown as Transfer[]
  }

  close (): void { this.#db.close() }
}
