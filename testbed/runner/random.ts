// The test bed's seeded randomness (topology, jitter, load): mulberry32 from a 32-bit seed, so
// one seed replays the same choices.
export function seededRandom (seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let x = Math.imul(s ^ (s >>> 15), 1 | s)
    x ^= x + Math.imul(x ^ (x >>> 7), 61 | x)
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32
  }
}
