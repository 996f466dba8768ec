// The contract of `ctx.follow` (the `chainFollow` service, provided by the plugin that provides
// `chain`): ordered commit / revert notifications of the best chain from a durable cursor the
// plugin acknowledges. Types only.
import type { Block } from '../chain/types.ts'
import type { StoredReceipt } from '../chain/chain-service.ts'
import type { BlockRef } from './hooks.ts'

/**
 * One notification. `commit`: `block` joined the follower's chain (the best chain at that
 * moment), with its receipts. `revert`: `block`, which the follower had committed, left the best
 * chain. `cursor` is the follower's position once it has handled this one (the block committed,
 * or the reverted block's parent; null: before genesis).
 */
export type FollowNotification =
  | { kind: 'commit'; block: Block; receipts: readonly StoredReceipt[]; cursor: BlockRef }
  | { kind: 'revert'; block: Block; cursor: BlockRef | null }

/** Handles one notification; resolving acknowledges it (the next comes after). A handler that
 *  throws gets the same notification again, later: nothing is skipped. */
export type FollowHandler = (n: FollowNotification) => Promise<void> | void

/** Where a follower's position is kept. The default is a key of the chain database, saved after
 *  each handled notification (at least once: a crash between the handler and the save repeats
 *  that one notification). A plugin with a store of its own passes `{ load }` and writes
 *  `n.cursor` in the same transaction as what it derived from `n` (exactly once). */
export interface FollowCursorStore {
  load(): Promise<BlockRef | null | undefined> | BlockRef | null | undefined
  save(ref: BlockRef | null): Promise<void> | void
}

export interface FollowOptions {
  /** the plugin's own cursor (only `load` is called: the plugin saves `n.cursor` itself) */
  cursor?: Pick<FollowCursorStore, 'load'> & Partial<Pick<FollowCursorStore, 'save'>>
  /** with no saved position: start before genesis (every block, the default) or at the tip */
  from?: 'genesis' | 'tip'
}

export interface Follower {
  readonly id: string
  /** the last acknowledged block (null: none yet) */
  readonly position: BlockRef | null
  /** notifications handled since start */
  readonly delivered: number
}

export interface ChainFollowService {
  /** `id` is unique per node (`ctx.follow` makes it `<plugin>/<name>`) */
  follow(id: string, handler: FollowHandler, opts?: FollowOptions): Follower
}
