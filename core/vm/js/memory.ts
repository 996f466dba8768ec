// A frame's byte-addressed memory for the JS core: grows in whole words, priced by
// memoryCost, capped at LIMITS.memoryBytes (growing past it costs "infinite" gas).
import { LIMITS, memoryCost } from '../params.ts'

const LIMIT = BigInt(LIMITS.memoryBytes)

export class FrameMemory {
  bytes = new Uint8Array(4096)
  words = 0

  /**
   * Grows the memory to cover [offset, offset + length) and returns the gas that costs
   * (Infinity past the limit, when nothing grows). An empty region never grows memory.
   */
  expand (offset: bigint, length: bigint): number {
    if (length === 0n) return 0
    const endBig = offset + length
    if (endBig > LIMIT) return Infinity
    const words = (Number(endBig) + 31) >>> 5
    if (words <= this.words) return 0
    const cost = memoryCost(words) - memoryCost(this.words)
    const size = words << 5
    if (size > this.bytes.length) {
      const grown = new Uint8Array(Math.max(size, this.bytes.length * 2))
      grown.set(this.bytes)
      this.bytes = grown
    }
    this.words = words
    return cost
  }
}
