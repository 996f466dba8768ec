// A transaction's storage, cached inside the module so SLOAD and SSTORE of a slot seen before
// never leave WebAssembly. Entries are keyed by (contract id, slot); a slot's first access
// reads it from the host. Writes go to the cache with an undo journal: a failed sub-call rolls
// the journal back to the mark taken before it, and the host receives the dirty entries once,
// when the transaction's frame succeeds (storageFlush). When the table is full, slots not yet
// cached go straight to the host (hostSload / hostSstore), whose own snapshots undo them; a slot
// is either always cached or never within one transaction, so the two never disagree.
import { GAS_SSTORE, GAS_SSTORE_SET_EXTRA, LIMIT_GAS_LIMIT } from './opcodes'
import { hostSload, hostSstore, hostStorageFlush } from './host'
import * as u256 from './u256'

const CAPACITY: i32 = 16384 // table slots, a power of two
const MAX_USED: i32 = CAPACITY >> 1 // keep the load factor at most 1/2
const ENTRY: usize = 80
// entry: +0 used (u32), +4 contract id, +8 dirty, +16 slot word, +48 value word
const E_USED: usize = 0
const E_ID: usize = 4
const E_DIRTY: usize = 8
const E_SLOT: usize = 16
const E_VALUE: usize = 48
// journal record: +0 entry pointer, +4 dirty before, +8 value before (word)
const RECORD: usize = 40
// every SSTORE costs at least GAS_SSTORE, so the largest gas limit bounds the journal
const JOURNAL_CAPACITY: i32 = i32(LIMIT_GAS_LIMIT / GAS_SSTORE) + 1

/** the cache's three regions, laid out once by `cacheInit` at a 32-byte aligned base */
let table: usize = 0
let usedList: usize = 0
let journal: usize = 0
let used: i32 = 0
let journalLength: i32 = 0

/** bytes the cache needs, placed by the caller before the frames */
export const CACHE_BYTES: usize = <usize>CAPACITY * ENTRY + <usize>MAX_USED * 4 + <usize>JOURNAL_CAPACITY * RECORD

export function cacheInit (base: usize): void {
  table = base
  usedList = table + <usize>CAPACITY * ENTRY
  journal = usedList + <usize>MAX_USED * 4
  memory.fill(table, 0, <usize>CAPACITY * ENTRY)
  used = 0
  journalLength = 0
}

/** forgets every entry (only the used ones are cleared) */
export function cacheReset (): void {
  for (let i = 0; i < used; i++) store<u32>(load<u32>(usedList + (<usize>i << 2)), 0, E_USED)
  used = 0
  journalLength = 0
}

function hashOf (id: u32, slot: usize): u32 {
  let x = load<u64>(slot) ^ (load<u64>(slot, 8) * 0x9e3779b97f4a7c15) ^
    (load<u64>(slot, 16) * 0xc2b2ae3d27d4eb4f) ^ (load<u64>(slot, 24) * 0x165667b19e3779f9) ^
    (u64(id) * 0xd6e8feb86659fd93)
  x ^= x >> 29
  x *= 0xbf58476d1ce4e5b9
  x ^= x >> 32
  return u32(x)
}

/** the entry for (id, slot), or the empty table slot where it would go */
function probe (id: u32, slot: usize): usize {
  let i = hashOf(id, slot) & u32(CAPACITY - 1)
  while (true) {
    const e = table + <usize>i * ENTRY
    if (load<u32>(e, E_USED) == 0) return e
    if (load<u32>(e, E_ID) == id && u256.eq(e + E_SLOT, slot)) return e
    i = (i + 1) & u32(CAPACITY - 1)
  }
  return 0
}

/** the cached entry for (id, slot), loading it from the host on first sight; 0 when full */
function entryFor (id: u32, slot: usize): usize {
  const e = probe(id, slot)
  if (load<u32>(e, E_USED) != 0) return e
  if (used >= MAX_USED) return 0
  store<u32>(e, 1, E_USED)
  store<u32>(e, id, E_ID)
  store<u32>(e, 0, E_DIRTY)
  u256.copyWord(e + E_SLOT, slot)
  hostSload(slot, e + E_VALUE)
  store<u32>(usedList + (<usize>used << 2), u32(e))
  used++
  return e
}

/** SLOAD: storage[slot] of contract `id` into `out` (out may alias slot) */
export function storageLoad (id: u32, slot: usize, out: usize): void {
  const e = entryFor(id, slot)
  if (e == 0) hostSload(slot, out)
  else u256.copyWord(out, e + E_VALUE)
}

/**
 * SSTORE: writes when `gasLeft` covers the zero-to-non-zero surcharge; returns the surcharge
 * taken, or -1 (nothing written) when it does not.
 */
export function storageStore (id: u32, slot: usize, value: usize, gasLeft: i64): i64 {
  const e = entryFor(id, slot)
  if (e == 0) return i64(hostSstore(slot, value, f64(gasLeft)))
  const extra: i64 = !u256.isZero(value) && u256.isZero(e + E_VALUE) ? GAS_SSTORE_SET_EXTRA : 0
  if (extra > gasLeft) return -1
  const record = journal + <usize>journalLength * RECORD
  store<u32>(record, u32(e))
  store<u32>(record, load<u32>(e, E_DIRTY), 4)
  u256.copyWord(record + 8, e + E_VALUE)
  journalLength++
  u256.copyWord(e + E_VALUE, value)
  store<u32>(e, 1, E_DIRTY)
  return extra
}

export function journalMark (): i32 { return journalLength }

/** undoes every cached write made since `mark` */
export function journalRevert (mark: i32): void {
  while (journalLength > mark) {
    journalLength--
    const record = journal + <usize>journalLength * RECORD
    const e = <usize>load<u32>(record)
    store<u32>(e, load<u32>(record, 4), E_DIRTY)
    u256.copyWord(e + E_VALUE, record + 8)
  }
}

/** hands every written entry to the host, in first-access order */
export function cacheFlush (): void {
  for (let i = 0; i < used; i++) {
    const e = <usize>load<u32>(usedList + (<usize>i << 2))
    if (load<u32>(e, E_DIRTY) != 0) hostStorageFlush(load<u32>(e, E_ID), e + E_SLOT, e + E_VALUE)
  }
}
