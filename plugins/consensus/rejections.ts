// Refused blocks are announced (blockRejected hook and a warning) exactly once each: the
// connect step announces a rule a block broke, and processBlock must not announce it again.
import type { Logger } from 'pino'
import type { Hooks } from '../../core/kernel/hooks.ts'
import type { Block } from '../../core/chain/types.ts'
import type { BlockError } from '../../core/chain/errors.ts'
import type { BlockOrigin } from '../../core/chain/chain-service.ts'

/** Processing a block failed for a reason other than a consensus rule: retry it later. */
export class BlockNotProcessedError extends Error { override name = 'BlockNotProcessedError' }

/**
 * A failure that is not a rule the block broke (a trap in the VM host, an I/O error, out of
 * memory) says nothing about the block: it is not marked invalid and nothing is written, so
 * it can be processed again later; the error reaches the caller as a plain Error, which p2p
 * never holds against the peer.
 */
export function notProcessed (log: Logger, block: Block, err: unknown): BlockNotProcessedError {
  const reason = err instanceof Error ? err.message : String(err)
  log.error({ hash: block.hash.slice(0, 16), height: block.height, err }, `block not processed (not a consensus failure, will retry): ${reason}`)
  return new BlockNotProcessedError(`block ${block.height} could not be processed: ${reason}`, { cause: err })
}

export class Rejections {
  readonly #hooks: Hooks
  readonly #log: Logger
  /** errors already announced, so processBlock does not announce them twice */
  readonly #announced = new WeakSet<BlockError>()

  constructor (hooks: Hooks, log: Logger) {
    this.#hooks = hooks
    this.#log = log
  }

  wasAnnounced (err: BlockError): boolean { return this.#announced.has(err) }

  /** Announces a refused block (a reorg's invalid branch block is announced under its own hash). */
  announce (block: Block, err: BlockError, origin: BlockOrigin): void {
    this.#announced.add(err)
    // a block that failed the format check may be anything, and carry anything as its hash
    const claimed = block as Partial<Block> | null
    const hash = typeof claimed?.hash === 'string' ? claimed.hash.slice(0, 128) : ''
    this.#hooks.blockRejected.call({ hash, code: err.code, reason: err.message, origin })
    this.#log.warn({ hash: hash.slice(0, 16), height: claimed?.height, code: err.code, origin }, `block rejected: ${err.message}`)
  }
}
