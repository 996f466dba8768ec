// Ready-to-send explorer answers (issue 15). A main-chain block's detail and a confirmed
// transaction's lookup never change while their block stays on the main chain, except for
// two things: the display names (the name directory can change at any time) and, for a
// transaction, `confirmations` (the tip moves). So the route's own serializer writes the
// answer once with unguessable markers where those go, the text is cut at the markers, and
// every request, the first included, only joins the pieces with the names and confirmations
// of the moment (a name is written as JSON.stringify writes it, which is what the
// serializer does for a string: the tests hold the two to the same bytes).
//
// Invalidation: the cache is keyed by height (blocks) and transaction id, which a reorg
// re-points, so every disconnect clears both caches and bumps a generation; a request that
// started reading before the bump does not store what it read (see `generation`).
import { BoundedCache } from '../../core/kernel/bounded-cache.ts'
import crypto from 'node:crypto'
import type { NameOf } from '../../core/views/names.ts'
import type { HookCatalogue } from '../../core/kernel/hooks.ts'
import { tipFigures } from '../../core/views/chain-stats.ts'
import type { TipFigures } from '../../core/views/chain-stats.ts'
import type { ViewContext } from '../../core/views/context.ts'

export interface ExplorerCacheOptions {
  /** bytes of ready-to-send block details (0: none kept) */
  blockBytes: number
  /** bytes of ready-to-send transaction lookups (0: none kept) */
  txBytes: number
}

export const DEFAULT_CACHE: ExplorerCacheOptions = { blockBytes: 32 * 1024 * 1024, txBytes: 8 * 1024 * 1024 }

/** what a confirmed transaction's answer needs besides its template: the height confirmations count from */
export interface TxEntry { height: number; template: Template }

/**
 * The explorer's answers by main-chain height and by transaction id, dropped whenever a block
 * is disconnected (a reorg): that is the only event that re-points a height or moves a
 * confirmed transaction. A new tip changes neither (a transaction's confirmations are filled
 * in per request).
 */
export class ExplorerCache {
  readonly blocks: BoundedCache<number, Template>
  readonly txs: BoundedCache<string, TxEntry>
  /** bumped by every invalidation: a reader that saw another value before its reads may not store */
  generation = 0

  constructor (opts: ExplorerCacheOptions = DEFAULT_CACHE) {
    this.blocks = new BoundedCache({ maxSize: opts.blockBytes, maxEntries: Math.floor(opts.blockBytes / 256) })
    this.txs = new BoundedCache({ maxSize: opts.txBytes, maxEntries: Math.floor(opts.txBytes / 256) })
  }

  #tip: TipFigures | null = null

  /** total supply and next difficulty, read once per tip (every block hook drops them) */
  readonly tipFigures = (chain: ViewContext['chain']): TipFigures => {
    const hash = chain.tip().hash
    if (this.#tip?.hash !== hash) this.#tip = tipFigures(chain)
    return this.#tip
  }

  invalidate (): void {
    this.generation++
    this.blocks.clear()
    this.txs.clear()
  }

  /** drops everything on each disconnect (and, belt and braces, on a reorg's end) */
  follow (hooks: Pick<HookCatalogue, 'blockConnected' | 'blockDisconnected' | 'reorg' | 'tipChanged'>): void {
    // a request between a block's write and the tip moving could pair the old tip with the
    // new supply: every block event drops the figures
    const dropTip = (): void => { this.#tip = null }
    hooks.blockConnected.tap('explorer-cache', dropTip)
    hooks.tipChanged.tap('explorer-cache', dropTip)
    hooks.blockDisconnected.tap('explorer-cache', dropTip)
    hooks.blockDisconnected.tap('explorer-cache', () => { this.invalidate() })
    hooks.reorg.tap('explorer-cache', () => { this.invalidate() })
  }
}

/** what goes in a hole: the display name of an address, or the transaction's confirmations */
export type Hole = { address: string } | 'confirmations'

export interface Template {
  /** the serialized answer cut at its holes: parts.length === holes.length + 1 */
  parts: string[]
  holes: Hole[]
  /** memory estimate: the serialized text as V8 stores it, plus bookkeeping */
  bytes: number
}

/** the serializer's output for a nullable string, which is JSON.stringify's */
const nameJson = (name: string | null): string => name === null ? 'null' : JSON.stringify(name)

export function renderTemplate (t: Template, nameOf: NameOf, confirmations: number): string {
  let out = t.parts[0]!
  for (let i = 0; i < t.holes.length; i++) {
    const hole = t.holes[i]!
    out += (hole === 'confirmations' ? String(confirmations) : nameJson(nameOf(hole.address))) + t.parts[i + 1]!
  }
  return out
}

// per process and never sent: a block or transaction cannot carry them on purpose
const TOKEN = `m${crypto.randomBytes(12).toString('hex')}`
/** an integer the serializer writes as these digits; 2^52 plus a secret below 2^32 */
const CONFIRMATIONS_MARK = 2 ** 52 + crypto.randomBytes(4).readUInt32BE(0)
// eslint-disable-next-line no-control-regex
const WIDE_RE = /[^\u0000-\u00ff]/
const MARK_RE = new RegExp(`"${TOKEN}(\\d+)"|${String(CONFIRMATIONS_MARK)}`, 'g')

/** a string marker for name hole `i`, to put where that name goes before serializing */
export const nameMark = (i: number): string => `${TOKEN}${i}`
export const confirmationsMark = CONFIRMATIONS_MARK

/**
 * Cuts `marked` (the serializer's output with `nameMark(i)` for name hole i and
 * `confirmationsMark` for confirmations) into a template. Null when the marks are not exactly
 * one per address, in order (then the answer is serialized plainly and not cached). The
 * answer sent is always the template filled in, the first time too, so every answer for the
 * same block or transaction has the same bytes but for its names and confirmations.
 */
export function cutTemplate (marked: string, addresses: readonly string[]): Template | null {
  const parts: string[] = []
  const holes: Hole[] = []
  let from = 0
  let next = 0
  for (const m of marked.matchAll(MARK_RE)) {
    parts.push(marked.slice(from, m.index))
    if (m[1] === undefined) {
      holes.push('confirmations')
    } else {
      if (Number(m[1]) !== next || next >= addresses.length) return null
      holes.push({ address: addresses[next++]! })
    }
    from = m.index + m[0].length
  }
  if (next !== addresses.length) return null
  parts.push(marked.slice(from))
  // the parts are slices of `marked` and keep it alive: V8 holds it in one byte a character,
  // two when any character is past Latin-1
  const bytes = marked.length * (WIDE_RE.test(marked) ? 2 : 1) + addresses.reduce((n, a) => n + a.length, 0) + 64 * (holes.length + 2)
  return { parts, holes, bytes }
}
