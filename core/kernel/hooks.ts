// The one typed catalogue of hooks. Plugins (built-in and third-party) talk to each other
// through these and through container services only. Notification hooks are synchronous on
// purpose: a slow listener must not hold up consensus, so listeners that do I/O queue it.
import { AsyncSeriesHook, SyncBailHook, SyncHook, SyncWaterfallHook } from 'tapable'
import type { Block, Transaction } from '../chain/types.ts'
import type { Receipt } from '../vm/receipt.ts'

export interface BlockRef { height: number; hash: string }

export interface BlockConnectedEvent {
  block: Block
  /** receipts of the block's contract transactions, in block order */
  receipts: ReadonlyArray<{ tx_id: string; receipt: Receipt }>
  /** true when this block is connected as part of a reorg's new branch */
  reorg: boolean
  /** true when the node is still catching up (initial sync) */
  syncing: boolean
  /** seconds the chain spent connecting it: applying its state, awaiting its signature
   *  verdicts and writing the batch (absent where a connect is not timed) */
  connectSeconds?: number
}

export interface ReorgEvent { from: BlockRef; to: BlockRef; forkPoint: BlockRef; disconnected: number; connected: number }

export interface ChatMessageEvent {
  tx: Transaction
  status: 'pending' | 'confirmed'
  block: BlockRef | null
}

/**
 * The block the miner is about to search, beside the transactions it offers to
 * `miningTemplate`. Read only: the header is the miner's (its attestation is already signed over
 * the timestamp), so a tap changes the transaction list and nothing else.
 */
export interface MiningTemplateContext {
  readonly height: number
  readonly previousHash: string
  readonly difficulty: number
  readonly timestamp: number
}

/** a refused block: `hash` as the block claims it, `code` a BlockErrorCode, `origin` a BlockOrigin */
export interface BlockRejectedEvent { hash: string; code: string; reason: string; origin: string }

/** A plugin's refusal of a transaction (txAdmission): the submitter sees `reason`, and `code`
 *  as the rejection's code (HTTP 400 {"status":"rejected","reason","code"}). */
export interface TxRefusal { code: string; reason: string }

export interface PeerEvent { peerId: string; address: string }

/** a block or transaction as it arrives from a peer, before the rules past the block's work
 *  (the test bed's propagation clock, docs/testbed.md); fired per arrival, so a listener
 *  keeps the first time it saw an id */
export interface PeerItemEvent { kind: 'block' | 'tx'; id: string; peerId: string; height?: number; previousHash?: string }

/** a peer's block this node passed on (gossip Accept) once its work, linkage, envelope and
 *  rebuilt body checked out, before the chain applied it: `relayMs` is the time inside this
 *  node from its arrival (the test bed splits propagation into links and relaying nodes) */
export interface BlockRelayedEvent {
  hash: string
  height: number
  peerId: string
  relayMs: number
  /** how its transactions were found: all held here, some asked of the peer (blocktxn), or the whole block fetched */
  rebuilt: 'held' | 'request' | 'whole'
}

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
    /** a block arrived from anywhere (miner, peer gossip or sync) and was refused: it broke a
     *  rule or cannot become the best chain. Not for an orphan (parent unknown), which is
     *  processed again once its parent arrives. */
    blockRejected: new SyncHook<[BlockRejectedEvent]>(['event']),

    /** before a transaction that passed every rule enters the mempool (from the API, a plugin
     *  or a peer's gossip): a tap returns a TxRefusal to keep it out (not admitted, not
     *  relayed), or undefined to let it pass. The first refusal wins. */
    txAdmission: new SyncBailHook<[Transaction], TxRefusal | undefined>(['tx']),
    txAdmitted: new SyncHook<[Transaction]>(['tx']),
    txRemoved: new SyncHook<[{ tx: Transaction; reason: 'confirmed' | 'evicted' | 'expired' | 'invalidated' }]>(['event']),
    txConfirmed: new SyncHook<[{ tx: Transaction; block: BlockRef; index: number }]>(['event']),
    receiptWritten: new SyncHook<[{ tx_id: string; receipt: Receipt; block: BlockRef }]>(['event']),
    messageSeen: new SyncHook<[ChatMessageEvent]>(['event']),

    /** the miner passes the transactions of each new template through here: a tap returns them
     *  reordered or filtered (see docs/plugins.md for what the miner accepts) */
    miningTemplate: new SyncWaterfallHook<[Transaction[], MiningTemplateContext]>(['transactions', 'template']),
    /** the miner found a nonce for a block on the current tip, before the chain processes it:
     *  the moment it can be announced (its transactions came from the checked mempool) */
    blockFound: new SyncHook<[Block]>(['block']),
    blockMined: new SyncHook<[Block]>(['block']),
    entropyStatus: new SyncHook<[EntropyStatusEvent]>(['status']),

    /** a block (its work checked) or a transaction arrived from a peer, before the other rules */
    peerItemReceived: new SyncHook<[PeerItemEvent]>(['item']),
    /** a peer's block was passed on to this node's other peers, before the chain applied it */
    blockRelayed: new SyncHook<[BlockRelayedEvent]>(['relayed']),
    peerConnected: new SyncHook<[PeerEvent]>(['peer']),
    peerDisconnected: new SyncHook<[PeerEvent]>(['peer'])
  }
}

type CoreHooks = ReturnType<typeof createHooks>

/** The catalogue. A plugin adds the hooks it declares (manifest `hooks`) by declaration merging:
 *    declare module 'ledger-node/hooks' { interface Hooks { indexed: SyncHook<[number]> } } */
export interface Hooks extends CoreHooks {}
export type HookName = keyof Hooks

/** what fires a hook: tapable's call / promise / callAsync */
type FireMethod = 'call' | 'promise' | 'callAsync'

/** a hook as a plugin that does not own it sees it: taps only */
export type TapOnly<H> = Omit<H, FireMethod>

/** the catalogue as every plugin gets it (`ctx.hooks`): tap anything, fire nothing */
export type HookCatalogue = { readonly [K in keyof Hooks]: TapOnly<Hooks[K]> }

/**
 * Who may fire each hook of the node's catalogue: the kernel, or the plugin providing the named
 * service (so a third-party replacement of a built-in fires what it replaces). A hook a plugin
 * declares is owned by that plugin.
 */
export const HOOK_OWNERS: Readonly<Record<keyof CoreHooks, 'kernel' | readonly string[]>> = {
  started: 'kernel',
  stopping: 'kernel',
  blockConnected: ['chain'],
  blockDisconnected: ['chain'],
  tipChanged: ['chain'],
  reorg: ['chain'],
  blockRejected: ['chain', 'peers'],
  txAdmission: ['mempool'],
  txAdmitted: ['mempool'],
  txRemoved: ['mempool'],
  txConfirmed: ['chain'],
  receiptWritten: ['chain'],
  messageSeen: ['chain', 'mempool'],
  miningTemplate: ['miner'],
  blockFound: ['miner'],
  blockMined: ['miner'],
  entropyStatus: ['entropy'],
  peerItemReceived: ['peers'],
  blockRelayed: ['peers'],
  peerConnected: ['peers'],
  peerDisconnected: ['peers']
}

export class HookOwnerError extends Error {}

const FIRE_METHODS: readonly FireMethod[] = ['call', 'promise', 'callAsync']

/**
 * The catalogue as plugin `plugin` sees it at run time: every hook taps as usual; firing one
 * it does not own (`owns(hook)` false) throws HookOwnerError naming the hook and its owner.
 */
export function hooksFor (hooks: Hooks, plugin: string, owns: (hook: string) => boolean, ownerOf: (hook: string) => string): Hooks {
  const view: Record<string, unknown> = {}
  for (const [name, hook] of Object.entries(hooks) as Array<[string, object]>) {
    if (owns(name)) { view[name] = hook; continue }
    view[name] = new Proxy(hook, {
      get (target, prop, receiver) {
        if (typeof prop === 'string' && (FIRE_METHODS as readonly string[]).includes(prop)) {
          return () => { throw new HookOwnerError(`plugin '${plugin}' cannot fire hook '${name}': only ${ownerOf(name)} fires it (plugins tap it)`) }
        }
        const v = Reflect.get(target, prop, receiver) as unknown
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v
      }
    })
  }
  return view as unknown as Hooks
}

/** hooks whose listeners pass a value on: a failed listener passes its input on unchanged (a
 *  failed txAdmission listener refuses nothing: it returns undefined) */
const WATERFALL_HOOKS: ReadonlySet<HookName> = new Set<HookName>(['miningTemplate'])

export type ListenerFailure = (failure: { hook: string; tap: string; err: unknown }) => void

/**
 * Runs every listener of every hook in isolation: an exception (or a rejected promise) is
 * reported through `onFailure` with the hook and tap name and never reaches the code that fired
 * the hook. Hooks fire after state is committed (a block connected, a tx admitted), so a broken
 * third-party listener must not roll back or abort what already happened, nor keep the other
 * listeners from running. A failed miningTemplate listener passes its transactions on unchanged.
 * Must run before any plugin taps (the kernel does it when it creates the bus).
 */
export function isolateListeners (hooks: Hooks, onFailure: ListenerFailure): void {
  for (const [hookName, hook] of Object.entries(hooks) as Array<[string, Hooks[HookName]]>) isolateHook(hookName, hook, onFailure)
}

/** isolateListeners for one hook (a hook a plugin declares joins the catalogue later) */
export function isolateHook (hookName: string, hook: Pick<Hooks[HookName], 'intercept'>, onFailure: ListenerFailure): void {
  const waterfall = WATERFALL_HOOKS.has(hookName as HookName)
  hook.intercept({
    register (tap) {
      const report = (err: unknown): void => onFailure({ hook: hookName, tap: tap.name, err })
      const fn = tap.fn as (...args: unknown[]) => unknown
      if (tap.type === 'promise') {
        return { ...tap, fn: async (...args: unknown[]) => { try { return await fn(...args) } catch (err) { report(err) } } }
      }
      if (tap.type === 'async') {
        return {
          ...tap,
          fn: (...args: unknown[]) => {
            const done = args.pop() as (err?: unknown, result?: unknown) => void
            let called = false
            const finish = (err?: unknown, result?: unknown): void => {
              if (called) return
              called = true
              if (err !== undefined && err !== null) report(err)
              done(null, result)
            }
            try { fn(...args, finish) } catch (err) { finish(err) }
          }
        }
      }
      return {
        ...tap,
        fn: (...args: unknown[]) => {
          try { return fn(...args) } catch (err) { report(err); return waterfall ? args[0] : undefined }
        }
      }
    }
  })
}
