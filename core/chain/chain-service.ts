// The `chain` service: the node's view of the best chain and the one door blocks come in
// through, whether mined locally or received from a peer.
import type { Block, Transaction } from './types.ts'
import type { BlockMeta, TxLocation } from './keys.ts'
import type { AccountState, StateOverlay } from './state.ts'
import type { Receipt } from '../vm/receipt.ts'
import type { NetworkParams } from './params.ts'
import type { BeaconEvidenceView } from './attestation.ts'

export type BlockOrigin = 'miner' | 'peer' | 'api' | 'test'

export interface ProcessResult {
  status: 'connected' | 'reorg' | 'side' | 'known'
  hash: string
  height: number
}

export interface ProcessOptions {
  /**
   * Cumulative work of a checked header chain (headers-first sync) that this block lies on.
   * A peer's side block lighter than the tip is kept only when this outweighs the tip.
   */
  branchWork?: bigint
  /**
   * The transactions' binary forms, in order, as the block was decoded from them (tx-codec.ts
   * txFormsOfDecodedBlock): the chain hashes and stores them instead of encoding the
   * transactions again. Never forms made any other way: nothing checks that they match.
   */
  txForms?: readonly Buffer[]
  /**
   * The block a download processes right after this one, with its binary forms (as `txForms`):
   * its signature checks go to the verifier's threads once this block's verdicts are in, so
   * they run while this block is written and the next decoded. processBlock of that same
   * object then uses those verdicts; a check started for a block that is never processed is
   * only wasted work.
   */
  next?: { block: Block; txForms?: readonly Buffer[] }
  /**
   * false: a refusal is not logged nor announced on blockRejected by the chain; the caller
   * reports it (p2p does, rate-limited per peer, so one peer's junk cannot flood the log and
   * the node's events). Default true.
   */
  announceRejection?: boolean
}

export interface StoredReceipt extends Receipt { tx_id: string; block_height: number }

export interface ConfirmedTx { tx: Transaction; location: TxLocation; blockHash: string }

export interface ChainService {
  readonly params: NetworkParams
  tip(): BlockMeta
  genesisHash(): string
  /** the compact target (`bits`) the next block on the tip must carry */
  nextBits(): number
  /** its difficulty: the leading zero hex digits of that target (what surfaces show) */
  nextDifficulty(): number
  totalSupply(): bigint
  getBlockByHeight(height: number): Promise<Block | undefined>
  getBlockByHash(hash: string): Promise<Block | undefined>
  /** the block's binary form (core/chain/tx-codec.ts) as a peer is sent it */
  getBlockBinary(hash: string): Promise<Uint8Array | undefined>
  getBlockMeta(hash: string): BlockMeta | undefined
  /** main-chain block hash at a height */
  hashAtHeight(height: number): string | undefined
  getTransaction(txId: string): Promise<ConfirmedTx | undefined>
  /** main-chain transaction ids starting with this lower-case hex prefix, at most `limit` */
  txIdsWithPrefix(prefix: string, limit: number): Promise<string[]>
  getAccount(address: string): AccountState
  /** wallet address behind a 40-hex VM address, if the chain has seen it */
  walletOfVm(vmAddress: string): string | undefined
  addressHistory(address: string, offset: number, limit: number): Promise<{ total: number; txIds: string[] }>
  getReceipt(txId: string): Promise<StoredReceipt | undefined>
  receiptsOfBlock(height: number): Promise<StoredReceipt[]>
  /** chat transactions (data.memo), newest first, from the message index */
  recentMessageTxs(limit: number): Promise<ConfirmedTx[]>
  /** read-only state view at the tip (mempool checks, dry runs) */
  stateView(): StateOverlay
  /** the 272 header bytes of a stored block, from the header index (undefined when not indexed) */
  getHeader(hash: string): Uint8Array | undefined
  processBlock(block: Block, origin: BlockOrigin, opts?: ProcessOptions): Promise<ProcessResult>
  /** marks blocks connected from now on as part of a bulk download (initial sync): their
   *  blockConnected carries `syncing: true`, so they are not gossiped or logged one by one */
  setSyncing(syncing: boolean): void
  /** checks the beacon rounds of a batch of blocks in one go before they are processed one by
   *  one (a cache the per-block check then hits); throws nothing a later processBlock would not */
  preverifyBeacons(blocks: readonly BeaconEvidenceView[]): Promise<void>
}
