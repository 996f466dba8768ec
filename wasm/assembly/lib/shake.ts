// SHAKE128 / SHAKE256 (FIPS 202 XOFs) over the 200-byte Keccak state of lib/keccak.ts, for
// cores that absorb input in pieces of any length and squeeze more than one block. The caller
// keeps the sponge's position (the next state byte input goes to); after `shakeFinish` the
// first `rate` bytes of the state are the first output block, and each further keccakF1600
// call on the state yields the next block. Nothing here allocates.
import { keccakF1600, xorByte, xorIntoState } from './keccak'

export const SHAKE128_RATE: i32 = 168
export const SHAKE256_RATE: i32 = 136

/**
 * Absorbs input[0..length) into a sponge whose next input byte lands at state byte `position`
 * (< rate), permuting each time a block fills; returns the new position (< rate).
 */
export function shakeAbsorb (state: usize, position: i32, rate: i32, input: usize, length: i32): i32 {
  let done = 0
  while (done < length) {
    let take = rate - position
    if (take > length - done) take = length - done
    xorIntoState(state + <usize>position, input + <usize>done, take)
    position += take
    done += take
    if (position == rate) {
      keccakF1600(state)
      position = 0
    }
  }
  return position
}

/**
 * Pads after `position` absorbed bytes of the last block (SHAKE's domain bits 1111, then
 * pad10*1: 0x1f ... 0x80) and permutes.
 */
export function shakeFinish (state: usize, position: i32, rate: i32): void {
  xorByte(state, position, 0x1f)
  xorByte(state, rate - 1, 0x80)
  keccakF1600(state)
}
