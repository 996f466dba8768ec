// JS twin of the WASM PoW core: SHA3-512(prefix ‖ nonce) with the prefix's whole 72-byte
// blocks absorbed once (the midstate, cached for the last prefix seen), so each nonce costs
// one Keccak-f — two when the prefix tail leaves no room for nonce + padding in one block.
import { STATE_WORDS, keccakF1600, padBlock, stateBytes, xorByte, xorBytes } from '../crypto/keccak-js.ts'
import { HASH_BYTES, NONCE_BYTES, checkNonce, checkSearch } from './nonce.ts'
import type { PowCore, PowSearchResult } from './pow-core.ts'

const RATE = 72 // SHA3-512

interface Midstate {
  prefix: Buffer // private copy, to recognise the same prefix on the next call
  tailLength: number
  oneBlock: boolean
  // state after the prefix's whole blocks, with the tail (and, for one block, the padding)
  // already XORed in: everything but the nonce
  template: Int32Array
}

let midstate: Midstate | null = null
const work = new Int32Array(STATE_WORDS)

function midstateFor (prefix: Uint8Array): Midstate {
  const view = Buffer.from(prefix.buffer, prefix.byteOffset, prefix.byteLength)
  if (midstate !== null && midstate.prefix.equals(view)) return midstate
  const template = new Int32Array(STATE_WORDS)
  const wholeBytes = prefix.length - (prefix.length % RATE)
  for (let offset = 0; offset < wholeBytes; offset += RATE) {
    xorBytes(template, prefix, offset, RATE)
    keccakF1600(template)
  }
  const tailLength = prefix.length - wholeBytes
  xorBytes(template, prefix, wholeBytes, tailLength)
  // one byte must remain after the nonce for the 0x06 padding byte
  const oneBlock = tailLength + NONCE_BYTES < RATE
  if (oneBlock) padBlock(template, tailLength + NONCE_BYTES, RATE)
  midstate = { prefix: Buffer.from(view), tailLength, oneBlock, template }
  return midstate
}

const bswap32 = (x: number): number => (x >>> 24) | (x >>> 8 & 0xff00) | (x << 8 & 0xff0000) | (x << 24)

/** Big-endian byte `index` (0..7) of the nonce hi·2^32 + lo. */
const nonceByte = (hi: number, lo: number, index: number): number =>
  ((index < 4 ? hi : lo) >>> ((3 - (index & 3)) << 3)) & 0xff

/** Leaves SHA3-512(prefix ‖ nonce) in `work` (digest = its first 64 bytes). */
function hashNonce (m: Midstate, hi: number, lo: number): void {
  work.set(m.template)
  const tail = m.tailLength
  if (m.oneBlock) {
    if ((tail & 3) === 0) {
      // word-aligned (the node's 264-byte header prefix is): the nonce is two whole words
      work[tail >> 2] = work[tail >> 2]! ^ bswap32(hi)
      work[(tail >> 2) + 1] = work[(tail >> 2) + 1]! ^ bswap32(lo)
    } else {
      for (let i = 0; i < NONCE_BYTES; i++) xorByte(work, tail + i, nonceByte(hi, lo, i))
    }
    keccakF1600(work)
    return
  }
  // the nonce crosses into a second block
  const inFirst = RATE - tail
  for (let i = 0; i < inFirst; i++) xorByte(work, tail + i, nonceByte(hi, lo, i))
  keccakF1600(work)
  for (let i = inFirst; i < NONCE_BYTES; i++) xorByte(work, i - inFirst, nonceByte(hi, lo, i))
  padBlock(work, NONCE_BYTES - inFirst, RATE)
  keccakF1600(work)
}

/** The target as 16 big-endian 32-bit words (what the digest's words are compared with). */
function targetWords (target: Uint8Array): Uint32Array {
  const view = new DataView(target.buffer, target.byteOffset, target.byteLength)
  return Uint32Array.from({ length: HASH_BYTES / 4 }, (_, i) => view.getUint32(i * 4))
}

/**
 * Whether the digest in `work` is at most the target, reading the state words: the digest's
 * bytes are little-endian in each word, so bswap32 gives its next 32 big-endian bits. The
 * first 64 bits settle almost every nonce (the fast path); only a tie reads on.
 */
function workMeetsTarget (t: Uint32Array): boolean {
  for (let i = 0; i < HASH_BYTES / 4; i++) {
    const h = bswap32(work[i]!) >>> 0
    if (h !== t[i]) return h < t[i]!
  }
  return true
}

export const jsPowCore: PowCore = {
  kind: 'js',
  hashHeader (prefix: Uint8Array, nonce: number): Uint8Array {
    checkNonce(nonce)
    hashNonce(midstateFor(prefix), Math.floor(nonce / 2 ** 32), nonce >>> 0)
    return stateBytes(work, HASH_BYTES)
  },
  search (prefix: Uint8Array, start: number, count: number, target: Uint8Array): PowSearchResult {
    checkSearch(start, count, target)
    const t = targetWords(target)
    const m = midstateFor(prefix)
    let hi = Math.floor(start / 2 ** 32)
    let lo = start >>> 0
    for (let i = 0; i < count; i++) {
      hashNonce(m, hi, lo)
      if (workMeetsTarget(t)) {
        return { found: true, nonce: start + i, hash: stateBytes(work, HASH_BYTES), tried: i + 1 }
      }
      lo = (lo + 1) >>> 0
      if (lo === 0) hi++
    }
    return { found: false, nonce: start + count, hash: null, tried: count }
  }
}
