// SHA3-256 / SHA3-512 core. JS copies input into INPUT in chunks of CHUNK_BYTES (a multiple of
// both rates, so only the last chunk can end inside a block), then reads the digest from the
// first bytes of STATE. One-shot `digest` covers inputs that fit one chunk in a single call.
import { STATE_BYTES, absorbBlocks, absorbFinal, resetState } from './lib/keccak'

// lcm(136, 72) = 1224; 53 of those is just under 64 KiB.
const CHUNK_BYTES: i32 = 1224 * 53
const INPUT: usize = memory.data(CHUNK_BYTES, 16)
const STATE: usize = memory.data(STATE_BYTES, 16)

export function inputPointer (): usize { return INPUT }
export function statePointer (): usize { return STATE }
export function chunkBytes (): i32 { return CHUNK_BYTES }

/** Starts a streamed hash. */
export function begin (): void {
  resetState(STATE)
}

/** Absorbs INPUT[0..length); `length` must be a multiple of `rate` (136 or 72). */
export function update (rate: i32, length: i32): void {
  absorbBlocks(STATE, INPUT, length, rate)
}

/** Absorbs the last INPUT[0..length) (any length up to CHUNK_BYTES), pads, and permutes. */
export function finish (rate: i32, length: i32): void {
  const done = absorbBlocks(STATE, INPUT, length, rate)
  absorbFinal(STATE, INPUT + done, length - done, rate)
}

/** One-shot hash of INPUT[0..length). */
export function digest (rate: i32, length: i32): void {
  resetState(STATE)
  finish(rate, length)
}
