// The one typed catalogue of hooks. Plugins (built-in and third-party) talk to each other
// through these and through container services only. Notification hooks are synchronous on
// purpose: a slow listener must not hold up consensus, so listeners that do I/O queue it.
import { AsyncSeriesHook, SyncHook, SyncWaterfallHook } from 'tapable'
import type { Block, Transaction } from './chain/types.ts'
import type { Receipt } from './vm-receipt.ts'

export interface BlockRef { height: number; hash: string }

export interface BlockConnectedEvent {
  block: Block
  /** receipts of the block's contract transactions, in block order */
  receipts: ReadonlyArray<{ tx_id: string; receipt: Receipt }>
  /** true when this block is connected as part of a reorg's new branch */
  reorg: boolean
  /** true when the node is still catching up (initial sync) */
  syncing: boolean
}

export interface ReorgEvent { from: BlockRef; to: BlockRef; forkPoint: BlockRef; disconnected: number; connected: number }

export interface ChatMessageEvent {
  tx: Transaction
  status: 'pending' | 'confirmed'
  block: BlockRef | null
}

export interface MiningTemplate {
  height: number
  previousHash: string
  transactions: Transaction[]
  difficulty: number
  timestamp: number
}

export interface PeerEvent { peerId: string; address: string }

export interface EntropyStatusEvent { reachable: boolean; source: string | null; reason: string | null }

export function createHooks () {
  return {
    /** after every plugin registered and started; the node is serving */
    started: new AsyncSeriesHook<[]>(),
    /** shutdown began; plugin close() callbacks run after this, in reverse order */
    stopping: new AsyncSeriesHook<[]>(),

    blockConnected: new SyncHook<[BlockConnectedEvent]>(['event']),
    blockDisconnected: new SyncHook<[Block]>(['block']),
    tipChanged: new SyncHook<[BlockRef]>(['tip']),
    reorg: new SyncHook<[ReorgEvent]>(['event']),
    /** a block arrived from anywhere (miner or peer) and failed validation */
    blockRejected: new SyncHook<[{ hash: string; code: string; reason: string; origin: string }]>(['event']),

    txAdmitted: new SyncHook<[Transaction]>(['tx']),
    txRemoved: new SyncHook<[{ tx: Transaction; reason: 'confirmed' | 'evicted' | 'expired' | 'invalidated' }]>(['event']),
    txConfirmed: new SyncHook<[{ tx: Transaction; block: BlockRef; index: number }]>(['event']),
    receiptWritten: new SyncHook<[{ tx_id: string; receipt: Receipt; block: BlockRef }]>(['event']),
    messageSeen: new SyncHook<[ChatMessageEvent]>(['event']),

    /** the miner passes each new template through here; a plugin may reorder or filter transactions */
    miningTemplate: new SyncWaterfallHook<[MiningTemplate]>(['template']),
    blockMined: new SyncHook<[Block]>(['block']),
    entropyStatus: new SyncHook<[EntropyStatusEvent]>(['status']),

    peerConnected: new SyncHook<[PeerEvent]>(['peer']),
    peerDisconnected: new SyncHook<[PeerEvent]>(['peer'])
  }
}

export type Hooks = ReturnType<typeof createHooks>
export type HookName = keyof Hooks
