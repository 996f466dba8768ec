// Renders wasm/assembly/lib/keccak-simd.ts: Keccak-f[1600] on three states at once for the
// SIMD PoW core — two in the 64-bit halves of v128 lanes, the third in i64 lanes — with the
// two permutations interleaved statement by statement, so that the vector units work on the
// first two while the integer units work on the third. Written out by a script because the
// interleaving doubles a file that must stay a lane-for-lane transcription of keccak.ts.
// Run after changing this script:
//   node scripts/gen-keccak-simd.ts
// test/core/pow/keccak-simd-generated.test.ts fails when the checked-in file is stale.
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export const KECCAK_SIMD_PATH = fileURLToPath(new URL('../wasm/assembly/lib/keccak-simd.ts', import.meta.url))

// rho offsets by lane index x + 5y: lane i is rotated by RHO<i> (keccak.ts states the values)
const rho = (lane: number): string => `RHO${lane}`
// pi: lane j = x + 5y of B is lane source[j] of A (B[y, 2x + 3y] = A[x, y])
const source: number[] = new Array<number>(25)
for (let x = 0; x < 5; x++) for (let y = 0; y < 5; y++) source[y + 5 * ((2 * x + 3 * y) % 5)] = x + 5 * y

// The scalar state is held lane-complemented as in keccakF1600 (keccak.ts): these lanes are
// inverted between load and store, and chi takes, lane by lane, the AND/OR form that maps the
// set back onto itself, 7 NOTs a round instead of 25 (b0..b4 as in the rows below).
const COMPLEMENTED = new Set([1, 3, 8, 10, 11, 15, 18, 19, 23, 24])
const CHI_COMPLEMENTED: string[] = [
  'b0 ^ (~b1 & b2)', 'b1 ^ (b2 | b3)', 'b2 ^ (b3 & ~b4)', 'b3 ^ (b4 & b0)', 'b4 ^ (b0 | ~b1)',
  'b0 ^ (b1 | b2)', 'b1 ^ (b2 & b3)', 'b2 ^ (b3 | ~b4)', 'b3 ^ (b4 | b0)', 'b4 ^ (b0 & b1)',
  'b0 ^ (~b1 & b2)', 'b1 ^ (b2 | b3)', 'b2 ^ (b3 & b4)', 'b3 ^ (b4 | b0)', 'b4 ^ (b0 & b1)',
  'b0 ^ (b1 | b2)', 'b1 ^ (b2 & b3)', 'b2 ^ (b3 | b4)', '~(b3 ^ (b4 & b0))', 'b4 ^ (~b0 & b1)',
  'b0 ^ (b1 & b2)', 'b1 ^ (b2 | b3)', 'b2 ^ (b3 & b4)', 'b3 ^ (~b4 & b0)', 'b4 ^ (b0 | b1)'
]

// The working states live in the scratch memory the caller passes, not in locals: state a
// and state e, each the v128 pair (400 bytes) then the scalar third (200 bytes).
const PAIR_BYTES = 400
const STATE3_BYTES = 600
const at = (state: 'a' | 'e'): number => state === 'a' ? 0 : STATE3_BYTES

interface Ops {
  /** suffix of this state's locals: '' for the v128 pair, 's' for the scalar state */
  s: string
  xor: (a: string, b: string) => string
  rotl: (x: string, n: string) => string
  /** chi of lane `lane` from b0, b1 = b[x + 1], b2 = b[x + 2] (plain: b0 ^ (~b1 & b2)) */
  chi: (lane: number, b0: string, b1: string, b2: string) => string
  rc: (offset: string) => string
  load: (state: 'a' | 'e', lane: number) => string
  store: (state: 'a' | 'e', lane: number, value: string) => string
}

const VEC: Ops = {
  s: '',
  xor: (a, b) => `v128.xor(${a}, ${b})`,
  rotl: (x, n) => `rotl2(${x}, ${n})`,
  chi: (_lane, b0, b1, b2) => `v128.xor(${b0}, v128.andnot(${b2}, ${b1}))`,
  rc: (offset) => `v128.load64_splat(${offset})`,
  load: (state, lane) => `v128.load(scratch, ${at(state) + 16 * lane})`,
  store: (state, lane, value) => `v128.store(scratch, ${value}, ${at(state) + 16 * lane})`
}
const SCALAR: Ops = {
  s: 's',
  xor: (a, b) => `${a} ^ ${b}`,
  rotl: (x, n) => `rotl<u64>(${x}, ${n})`,
  chi: (lane) => `(${CHI_COMPLEMENTED[lane]!.replace(/b(\d)/g, 'b$1s')})`,
  rc: (offset) => `load<u64>(${offset})`,
  load: (state, lane) => `load<u64>(scratch, ${at(state) + PAIR_BYTES + 8 * lane})`,
  store: (state, lane, value) => `store<u64>(scratch, ${value}, ${at(state) + PAIR_BYTES + 8 * lane})`
}

/**
 * One round from state `from` to state `to`, each line both states' statement. The last
 * round stores lanes 0..7 to the digest (`to2`, `to1`) instead, undoing the complement.
 */
function round (from: 'a' | 'e', to: 'a' | 'e', rc: string, last: boolean): string[] {
  const lines: string[] = []
  const both = (f: (o: Ops) => string): void => { lines.push(`${f(VEC)}; ${f(SCALAR)}`) }
  // theta: the column parities, read back from the state rather than carried in locals
  for (let x = 0; x < 5; x++) {
    both((o) => `c${x}${o.s} = ${[5, 10, 15, 20].reduce((acc, k) => o.xor(acc, o.load(from, x + k)), o.load(from, x))}`)
  }
  for (let x = 0; x < 5; x++) {
    both((o) => `d${x}${o.s} = ${o.xor(`c${(x + 4) % 5}${o.s}`, o.rotl(`c${(x + 1) % 5}${o.s}`, '1'))}`)
  }
  // the last round computes only what the digest is read from: lanes 0..7, rows 0 and 1
  for (let y = 0; y < (last ? 2 : 5); y++) {
    // rho and pi into b0..b4, then chi (and iota on lane 0), stored
    for (let x = 0; x < 5; x++) {
      const lane = source[x + 5 * y]!
      both((o) => {
        const value = o.xor(o.load(from, lane), `d${lane % 5}${o.s}`)
        return `b${x}${o.s} = ${lane === 0 ? value : o.rotl(value, rho(lane))}`
      })
    }
    for (let x = 0; x < 5; x++) {
      const lane = x + 5 * y
      if (last && lane > 7) break
      both((o) => {
        const chi = o.chi(lane, `b${x}${o.s}`, `b${(x + 1) % 5}${o.s}`, `b${(x + 2) % 5}${o.s}`)
        const value = lane === 0 ? o.xor(chi, o.rc(rc)) : chi
        if (!last) return o.store(to, lane, value)
        return o === VEC
          ? `v128.store(to2, ${value}, ${16 * lane})`
          : `store<u64>(to1, ${COMPLEMENTED.has(lane) ? `~${value}` : value}, ${8 * lane})`
      })
    }
  }
  return lines
}

export function renderKeccakSimd (): string {
  const out: string[] = []
  const add = (indent: string, lines: string[]): void => { for (const l of lines) out.push(indent + l) }
  out.push(
    '// GENERATED by scripts/gen-keccak-simd.ts. Do not edit: change the script and run',
    '// `node scripts/gen-keccak-simd.ts`.',
    '//',
    '// Keccak-f[1600] on three states at once, for the SIMD PoW core (pow-simd.ts): lane i of the',
    '// first two is one v128 (the first state\'s lane in the low 64 bits), so every operation runs',
    '// on both in one WebAssembly SIMD instruction; the third is plain i64 (names ending in s).',
    '// The two permutations are interleaved statement by statement: the vector units are',
    '// saturated by the first (~190 operations a round, nearly half of them rotations, since',
    '// WebAssembly has no 64-bit lane rotate: shl, shr_u, or), and the integer units take the',
    '// third nonce. Each loop pass is two rounds, a -> e then e -> a, as in the scalar',
    '// keccakF1600 (keccak.ts), whose round constants and rho offsets these are; the pair\'s chi',
    '// is the plain b ^ (~b1 & b2) (v128.andnot: one instruction), the third is held',
    '// lane-complemented with keccakF1600\'s AND/OR forms (7 NOTs a round instead of 25).',
    '// The states live in caller-provided scratch memory, not in locals: 25 v128 lanes, 25 i64',
    '// lanes and the parities, lane copies and rotations of a round are far more than x64\'s 16',
    '// xmm and ~12 free general registers, and V8 spilled and refilled locals across the round',
    '// (~95 memory moves a round for each kind against the 50 of one load and one store a',
    '// lane). Each lane is now loaded where used and stored once by chi, and theta reads the',
    '// parities back from the state instead of carrying five accumulators through the round,',
    '// so the pair runs without spills. On an Intel Xeon (Sapphire Rapids, V8 13.6), where the',
    '// loop is bound by the 6-wide rename (the i64 work shares ports 0, 1, 5 with the vector',
    '// work), this and the complementing together took the core from 1.42x to 1.60x the scalar',
    '// core (medians of 20 interleaved runs; the locals version was 1.71-1.82x on an AMD EPYC).',
    '// What was measured and not kept: 24 rounds written out (half speed: the code no longer fits',
    '// the instruction caches), two v128 states interleaved (four nonces a pass: no faster than',
    '// two, the vector units being already busy), i8x16.shuffle for the rotations by 8 and 56',
    '// (V8 rebuilds the byte mask from two 64-bit immediates at every use); on the Xeon, the',
    '// pair alone without the third nonce (0.95x), and the memory states with the parities',
    '// accumulated in locals (1.07x the locals version, where reading them back made 1.13x), one',
    '// round per loop pass with the two states swapped by pointer (0.96x: two more registers',
    '// taken, more spills).',
    '',
    `import { ROUND_CONSTANTS, ${Array.from({ length: 24 }, (_, i) => rho(i + 1)).join(', ')} } from './keccak'`,
    '',
    '/** Bytes of two interleaved states (25 v128 lanes). */',
    `export const STATE2_BYTES: i32 = ${PAIR_BYTES}`,
    '/** Bytes of the scratch memory keccakF1600x3Digest works in: two states of three. */',
    `export const SCRATCH_BYTES: i32 = ${2 * STATE3_BYTES}`,
    '',
    '// a 64-bit lane rotate: two shifts and an OR (a doubling for the shift by one)',
    '// @ts-ignore: decorator',
    '@inline function rotl2 (x: v128, n: i32): v128 {',
    '  return n == 1',
    '    ? v128.or(i64x2.add(x, x), i64x2.shr_u(x, 63))',
    '    : v128.or(i64x2.shl(x, n), i64x2.shr_u(x, 64 - n))',
    '}',
    '',
    '/**',
    ' * Keccak-f[1600] of the two interleaved states at `from2` (400 bytes) and of the state at',
    ' * `from1` (200 bytes), both left as they are, working in `scratch` (SCRATCH_BYTES, 16-byte',
    ' * aligned). Writes only the lanes a SHA3-512 digest is read from, 0..7, to `to2` (128',
    ' * bytes, interleaved) and `to1` (64 bytes): the loop runs rounds 0..21, then round 22 in',
    ' * full and of round 23 just those lanes.',
    ' */',
    'export function keccakF1600x3Digest (from2: usize, to2: usize, from1: usize, to1: usize, scratch: usize): void {'
  )
  // state a := the inputs, the scalar one complemented
  for (let i = 0; i < 25; i++) {
    out.push(`  ${VEC.store('a', i, `v128.load(from2, ${16 * i})`)}; ${SCALAR.store('a', i, `${COMPLEMENTED.has(i) ? '~' : ''}load<u64>(from1, ${8 * i})`)}`)
  }
  out.push('  const zero = i64x2.splat(0)')
  for (let x = 0; x < 5; x++) {
    out.push(`  let b${x} = zero, b${x}s: u64 = 0, c${x} = zero, c${x}s: u64 = 0, d${x} = zero, d${x}s: u64 = 0`)
  }
  out.push('', '  for (let round: usize = 0; round < 22; round += 2) {', '    // even round: a -> e')
  add('    ', round('a', 'e', 'ROUND_CONSTANTS + (round << 3)', false))
  out.push('    // odd round: e -> a')
  add('    ', round('e', 'a', 'ROUND_CONSTANTS + (round << 3) + 8', false))
  out.push('  }', '', '  // round 22: a -> e')
  add('  ', round('a', 'e', 'ROUND_CONSTANTS + (22 << 3)', false))
  out.push('  // round 23, the last: e -> the digests, lanes 0..7 only')
  add('  ', round('e', 'a', 'ROUND_CONSTANTS + (23 << 3)', true))
  out.push('}', '')
  return out.join('\n')
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(KECCAK_SIMD_PATH, renderKeccakSimd())
  console.log(`gen-keccak-simd: wrote ${KECCAK_SIMD_PATH}`)
}
