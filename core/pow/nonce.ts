// Argument rules shared by both PoW cores. Nonces are JS numbers: integers in [0, 2^53), so
// they convert exactly to the header's uint64 and back.

/** Bytes of the header's nonce field (uint64 big-endian, the header's last field). */
export const NONCE_BYTES = 8
/** Bytes of a SHA3-512 digest: the block hash. */
export const HASH_BYTES = 64

export function checkNonce (nonce: number): void {
  if (!Number.isSafeInteger(nonce) || nonce < 0) {
    throw new RangeError(`nonce must be an integer in [0, 2^53), got ${nonce}`)
  }
}

/** Bytes of a target: a 512-bit big-endian integer a winning hash must not exceed. */
export const TARGET_BYTES = 64

export function checkTarget (target: Uint8Array): void {
  if (!(target instanceof Uint8Array) || target.length !== TARGET_BYTES) {
    throw new RangeError(`target must be ${TARGET_BYTES} bytes (a 512-bit big-endian integer)`)
  }
}

export function checkSearch (start: number, count: number, target: Uint8Array): void {
  checkNonce(start)
  // compared as 2^53 - start, which is exact, where start + count may round
  if (!Number.isSafeInteger(count) || count < 0 || count > 2 ** 53 - start) {
    throw new RangeError(`count must be an integer >= 0 with start + count <= 2^53, got start ${start}, count ${count}`)
  }
  checkTarget(target)
}
