// The contract VM core (DESIGN 4): a gas-metered 256-bit interpreter. The JS host
// (core/vm/wasm/interpreter.ts) lays out each frame with `allocFrame`, writes its context,
// code and calldata, and calls `run`; storage, balances, logs and sub-calls are host imports.
import { allocFrame, beginTransaction } from './vm/frame'
import { cacheFlush } from './vm/storage-cache'
import { ENV, CALL_RESULT } from './vm/interpreter'

export { run } from './vm/interpreter'

/** Lays out the next frame for code and calldata of these sizes; returns its base. */
export function frameAlloc (codeLength: i32, calldataLength: i32): usize {
  return allocFrame(codeLength, calldataLength)
}

/** Where the host writes block height, timestamp and miner (three words). */
export function envPointer (): usize { return ENV }

/** Where the host writes a sub-call's gas left (f64) and return data length (i32). */
export function callResultPointer (): usize { return CALL_RESULT }

/** Forgets every frame and cached storage: the host calls this before a transaction's first frame. */
export function resetFrames (): void { beginTransaction() }

/** Hands the transaction's storage writes to the host (storageFlush), after its frame succeeded. */
export function flushStorage (): void { cacheFlush() }
