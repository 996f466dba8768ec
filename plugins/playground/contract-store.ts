// The contracts each user deployed through the playground (SPEC 2.6 contract list entry):
// kept in the admin database next to the accounts, so a restart or a chain resync keeps
// them, keyed by the paying wallet (a re-signup after unblock gets a fresh wallet and an
// empty list). Whether a deploy is pending or deployed is read from the chain on every
// listing, so a reorg that drops or moves a deploy shows up at once.
import type { KvStore } from '../../core/kernel/kv.ts'
import { jsonValue } from '../../core/kernel/kv.ts'
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
/** deploy transaction id -> the ABI it was compiled with (until its receipt names the address) */
const deployKey = (txId: string): string => `playground:deploy:${txId}`
/** contract address (40 hex) -> ABI: what the explorer decodes logs with */
const abiKey = (contract: string): string => `playground:abi:${contract}`

export class ContractStore {
  readonly #db: KvStore
  /** ABIs learnt from a receipt whose write has not finished yet */
  readonly #fresh = new Map<string, Uint8Array>()

  constructor (db: KvStore) { this.#db = db }

  /** durable before it resolves (the admin database's rule: every write synchronous) */
  async add (record: ContractRecord): Promise<void> {
    await this.#db.write([
      { type: 'put', key: keyOf(record.owner, record.tx_id), value: jsonValue(record) },
      { type: 'put', key: deployKey(record.tx_id), value: jsonValue(record.abi) }
    ], { sync: true })
  }

  /** A deploy's receipt names its contract: remember the ABI under that address. Replaying
   *  a block (re-sync, reorg) writes the same value again. */
  deployed (txId: string, contract: string): Promise<boolean> {
    const abi = this.#db.getSync(deployKey(txId))
    if (abi === undefined) return Promise.resolve(false)
    const address = contract.toLowerCase().replace(/^0x/, '')
    // readable at once, durable a moment later (a crash in between re-learns it on re-sync)
    this.#fresh.set(address, abi)
    return this.#db.write([{ type: 'put', key: abiKey(address), value: abi }], { sync: true }).then(() => {
      this.#fresh.delete(address)
      return true
    })
  }

  abiAt (address: string): ContractAbi | undefined {
    const contract = address.trim().toLowerCase().replace(/^0x/, '')
    if (!/^[0-9a-f]{40}$/.test(contract)) return undefined
    const raw = this.#fresh.get(contract) ?? this.#db.getSync(abiKey(contract))
    return raw === undefined ? undefined : JSON.parse(Buffer.from(raw).toString('utf8')) as ContractAbi
  }

  /** the owner's records, newest first */
  async list (owner: string): Promise<ContractRecord[]> {
    const prefix = `${PREFIX}${owner}:`
    const out: ContractRecord[] = []
    for await (const [, v] of this.#db.entries({ gte: prefix, lt: `${prefix}\xff` })) out.push(JSON.parse(v.toString('utf8')) as ContractRecord)
    return out.sort((a, b) => b.submitted_at - a.submitted_at || (a.tx_id < b.tx_id ? -1 : 1))
  }
}
