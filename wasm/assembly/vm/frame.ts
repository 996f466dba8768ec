// Frames live one after another in linear memory, like a call stack: a sub-call's frame starts
// where its caller's EVM memory currently ends, and the caller cannot grow while the callee
// runs. Layout of a frame (all offsets from its base, 32-byte aligned regions):
//   header: address, caller, value words; code/calldata lengths; region pointers; results
//   code (+33 zero bytes, so a PUSH near the end reads zeros and running off the end is STOP)
//   jump-destination map (one byte per code byte)
//   calldata (+32 zero bytes, so CALLDATALOAD near the end reads zeros)
//   stack (1024 words), then the frame's EVM memory, growing upward.
import { LIMIT_STACK } from './opcodes'
import { CACHE_BYTES, cacheInit, cacheReset } from './storage-cache'

export const F_ADDRESS: usize = 0
export const F_CALLER: usize = 32
export const F_VALUE: usize = 64
export const F_CODE_LENGTH: usize = 96
export const F_CALLDATA_LENGTH: usize = 100
export const F_CODE: usize = 104
export const F_CALLDATA: usize = 108
export const F_DESTS: usize = 112
export const F_STACK: usize = 116
export const F_MEMORY: usize = 120
export const F_GAS_LEFT: usize = 128
export const F_OUT: usize = 136
export const F_OUT_LENGTH: usize = 140
/** small per-transaction number of the executing contract, the storage cache's key */
export const F_CONTRACT_ID: usize = 144
const HEADER: usize = 160

export const STACK_BYTES: usize = <usize>LIMIT_STACK << 5

@inline export function align32 (p: usize): usize { return (p + 31) & ~<usize>31 }

// the storage cache sits between the static data and the frames
const CACHE_BASE: usize = align32(__heap_base)
const FRAMES_BASE: usize = align32(CACHE_BASE + CACHE_BYTES)
let cacheReady = false

/** where the next frame goes: set by a frame before it calls out, reset when it ends */
export let heapTop: usize = FRAMES_BASE
export function setHeapTop (p: usize): void { heapTop = align32(p) }

/** Starts a transaction: no frames, an empty storage cache. */
export function beginTransaction (): void {
  heapTop = FRAMES_BASE
  if (cacheReady) { cacheReset(); return }
  ensureCapacity(FRAMES_BASE)
  cacheInit(CACHE_BASE)
  cacheReady = true
}

/** Grows linear memory to cover [0, end); traps if the engine refuses. */
export function ensureCapacity (end: usize): void {
  const have = <usize>memory.size() << 16
  if (end <= have) return
  const pages = i32((end - have + 0xffff) >> 16)
  if (memory.grow(pages) < 0) unreachable()
}

/** Lays out a frame at heapTop for code and calldata of these sizes; returns its base. */
export function allocFrame (codeLength: i32, calldataLength: i32): usize {
  const base = heapTop
  const code = base + HEADER
  const dests = align32(code + <usize>codeLength + 33)
  const calldata = align32(dests + <usize>codeLength)
  const stack = align32(calldata + <usize>calldataLength + 32)
  const mem = stack + STACK_BYTES
  ensureCapacity(mem)
  memory.fill(base, 0, HEADER)
  memory.fill(code + <usize>codeLength, 0, 33)
  memory.fill(calldata + <usize>calldataLength, 0, 32)
  store<i32>(base + F_CODE_LENGTH, codeLength)
  store<i32>(base + F_CALLDATA_LENGTH, calldataLength)
  store<u32>(base + F_CODE, u32(code))
  store<u32>(base + F_CALLDATA, u32(calldata))
  store<u32>(base + F_DESTS, u32(dests))
  store<u32>(base + F_STACK, u32(stack))
  store<u32>(base + F_MEMORY, u32(mem))
  return base
}
