// The contracts each user deployed through the playground (SPEC 2.6 contract list entry):
// kept in the admin database next to the accounts, so a restart or a chain resync keeps
// them, keyed by the paying wallet (a re-signup after unblock gets a fresh wallet and an
// empty list). Whether a deploy is pending or deployed is read from the chain on every
// listing, so a reorg that drops or moves a deploy shows up at once.
import type { KvStore } from '../../core/kv.ts'
import { jsonValue } from '../../core/kv.ts'
import type { ContractAbi } from '../../core/contracts/index.ts'

export interface ContractRecord {
  tx_id: string
  /** 32-hex wallet address that paid for the deploy */
  owner: string
  abi: ContractAbi
  /** Unix seconds: the deploy transaction's timestamp */
  submitted_at: number
  gas_limit: number
  bytecode_size: number
}

const PREFIX = 'playground:contract:'
const keyOf = (owner: string, txId: string): string => `${PREFIX}${owner}:${txId}`

export class ContractStore {
  readonly #db: KvStore

  constructor (db: KvStore) { this.#db = db }

  /** durable before it resolves (the admin database's rule: every write synchronous) */
  async add (record: ContractRecord): Promise<void> {
    await this.#db.write([{ type: 'put', key: keyOf(record.owner, record.tx_id), value: jsonValue(record) }], { sync: true })
  }

  /** the owner's records, newest first */
  async list (owner: string): Promise<ContractRecord[]> {
    const prefix = `${PREFIX}${owner}:`
    const out: ContractRecord[] = []
    for await (const [, v] of this.#db.entries({ gte: prefix, lt: `${prefix}\xff` })) out.push(JSON.parse(v.toString('utf8')) as ContractRecord)
    return out.sort((a, b) => b.submitted_at - a.submitted_at || (a.tx_id < b.tx_id ? -1 : 1))
  }
}
