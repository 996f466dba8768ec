// What the dashboard page charts beyond the chain itself, recorded by the node from boot (so a
// page opened now shows the last hour, not only what it polled since): a sample of hash rate,
// mempool and peers every few seconds, and when each block was connected.
import type { BlockConnectedEvent } from '../../core/kernel/hooks.ts'

export interface HistorySample {
  /** unix seconds */
  at: number
  /** this node's miner, hashes per second (0 when it does not mine) */
  hash_rate: number
  mempool_size: number
  mempool_bytes: number
  peer_count: number
}

export interface BlockTiming {
  height: number
  hash: string
  /** the block's own timestamp (set by its miner when it built the template) */
  timestamp: number
  /** unix seconds when this node connected it */
  connected_at: number
  /** connected_at − timestamp: the miner's search after stamping, relay and validation, and clock skew */
  lag_seconds: number
  /** seconds the chain took to connect it (state, signature verdicts, write); null where untimed */
  connect_seconds: number | null
  /** connected during initial sync (its lag says how old it was, nothing about relay) */
  syncing: boolean
}

/** A fixed-size ring: the newest `size` items, oldest first. */
export class Ring<T> {
  readonly #items: T[] = []
  readonly size: number
  constructor (size: number) { this.size = size }
  push (item: T): void {
    this.#items.push(item)
    if (this.#items.length > this.size) this.#items.shift()
  }

  list (): T[] { return [...this.#items] }
}

export function timingOf (event: BlockConnectedEvent, connectedAt: number): BlockTiming {
  const { block } = event
  return {
    height: block.height,
    hash: block.hash,
    timestamp: block.timestamp,
    connected_at: connectedAt,
    lag_seconds: connectedAt - block.timestamp,
    connect_seconds: event.connectSeconds ?? null,
    syncing: event.syncing
  }
}

/** an hour at the default 5 s */
export const HISTORY_SAMPLES = 720
/** the blocks the page's charts cover */
export const TIMED_BLOCKS = 300
