// The SIMD PoW core's permutation (wasm/assembly/lib/keccak-simd.ts) is written out by
// scripts/gen-keccak-simd.ts; the checked-in file must be exactly what the script renders,
// and it must read its rho offsets and round constants from keccak.ts, not carry copies.
import t from 'tap'
import { readFileSync } from 'node:fs'
import { KECCAK_SIMD_PATH, renderKeccakSimd } from '../../../scripts/gen-keccak-simd.ts'

t.test('wasm/assembly/lib/keccak-simd.ts is the generator\'s current output', async (t) => {
  t.equal(readFileSync(KECCAK_SIMD_PATH, 'utf8'), renderKeccakSimd(), 'run `node scripts/gen-keccak-simd.ts` after changing the script')
})

t.test('the permutation states no constant of its own', async (t) => {
  const source = renderKeccakSimd()
  t.match(source, /import \{ ROUND_CONSTANTS, RHO1, .*RHO24 \} from '\.\/keccak'/)
  t.notMatch(source, /memory\.data/, 'no table of its own')
  t.notMatch(source, /rotl(2|<u64>)\([^()]*(\([^()]*\))?[^()]*, (?!1\)|RHO)/, 'every rotation is by 1 (theta) or by a RHO offset')
})
