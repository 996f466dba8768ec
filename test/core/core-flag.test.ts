// `--core family=name,...` and the `cores` config key: parsing, precedence, and the one-line
// errors that name the valid families and cores.
import t from 'tap'
import path from 'node:path'
import { writeFileSync } from 'node:fs'
import { parseCoreFlag, CoreSelectionError, Cores, DEFAULT_CORE_SELECTION, formatCoreSelection } from '../../core/cores/cores.ts'
import { buildNodeConfig, UsageError } from '../../core/kernel/cli.ts'
import { ConfigError, resolveConfig } from '../../core/kernel/config.ts'
import { cleanup, tmpDir } from '../helpers/chain.ts'

t.test('parses families, several values and repeats; later wins', async (t) => {
  t.same(parseCoreFlag('sha3=js,pow=wasm,vm=js,mldsa=noble'), { sha3: 'js', pow: 'wasm', vm: 'js', mldsa: 'noble' })
  t.same(parseCoreFlag(['pow=wasm-scalar', ' vm = js ', 'pow=js']), { pow: 'js', vm: 'js' })
  t.same(parseCoreFlag(''), {})
})

t.test('a bad family or core is one line naming the valid ones', async (t) => {
  t.throws(() => parseCoreFlag('gpu=fast'), new CoreSelectionError('--core: unknown core family "gpu" (valid: sha3, pow, vm, mldsa, bls); write --core family=name,...'))
  t.throws(() => parseCoreFlag('sha3'), new CoreSelectionError('--core: sha3 needs a core name: sha3=<wasm|js>'))
  t.throws(() => parseCoreFlag('mldsa='), new CoreSelectionError('--core: mldsa needs a core name: mldsa=<native|noble|wasm>'))
  t.throws(() => parseCoreFlag('vm=evm'), new CoreSelectionError('--core: unknown vm core "evm" (valid: wasm, js)'))
  t.throws(() => parseCoreFlag('bls=blst'), new CoreSelectionError('--core: unknown bls core "blst" (valid: mcl, noble)'))
  t.throws(() => parseCoreFlag('toString=js'), /unknown core family "toString"/, 'no prototype names')
  t.throws(() => parseCoreFlag('sha3=constructor'), /unknown sha3 core "constructor"/)
})

t.test('Cores: defaults, toString, and a frozen selection', async (t) => {
  const cores = new Cores()
  t.same(cores.selection, DEFAULT_CORE_SELECTION)
  t.equal(String(cores), 'sha3=wasm,pow=wasm,vm=wasm,mldsa=wasm,bls=mcl')
  t.equal(formatCoreSelection({ ...DEFAULT_CORE_SELECTION, pow: 'js' }), 'sha3=wasm,pow=js,vm=wasm,mldsa=wasm,bls=mcl')
  t.throws(() => { (cores.selection as { sha3: string }).sha3 = 'js' }, TypeError)
})

t.test('the flag overrides the config key family by family', async (t) => {
  const dir = tmpDir('ledger-core-flag-')
  t.teardown(() => cleanup(dir))
  const file = path.join(dir, 'ledger.config.ts')
  writeFileSync(file, "export default { network: 'devnet', plugins: [], cores: { sha3: 'js', pow: 'wasm-scalar' } }\n")
  const fromConfig = await buildNodeConfig({ config: file, 'data-dir': dir })
  t.same(fromConfig.cores, { sha3: 'js', pow: 'wasm-scalar', vm: 'wasm', mldsa: 'wasm', bls: 'mcl' }, 'config key, defaults for the rest')
  const flagged = await buildNodeConfig({ config: file, 'data-dir': dir, core: ['pow=js,mldsa=noble'] })
  t.same(flagged.cores, { sha3: 'js', pow: 'js', vm: 'wasm', mldsa: 'noble', bls: 'mcl' }, 'the flag wins for what it names')
  await t.rejects(buildNodeConfig({ config: file, 'data-dir': dir, core: ['pow=cuda'] }), new UsageError('--core: unknown pow core "cuda" (valid: wasm, wasm-simd, wasm-scalar, js)'))
})

t.test('the config key lists every registered core', async (t) => {
  t.throws(() => resolveConfig({ cores: { pow: 'cuda' } as never }), new ConfigError('invalid config: "cores.pow" must be one of "wasm", "wasm-simd", "wasm-scalar", "js"'))
  t.throws(() => resolveConfig({ cores: { gpu: 'js' } as never }), new ConfigError('invalid config: unknown key "cores.gpu"'))
})

t.test('a config compiled to CommonJS (a TypeScript loader outside a module package) is read through its default', async (t) => {
  const dir = tmpDir('ledger-core-flag-cjs-')
  t.teardown(() => cleanup(dir))
  const file = path.join(dir, 'ledger.config.cjs')
  writeFileSync(file, "Object.defineProperty(exports, '__esModule', { value: true });\nexports.default = { network: 'devnet', plugins: [], cores: { sha3: 'js' } }\n")
  const config = await buildNodeConfig({ config: file, 'data-dir': dir })
  t.equal(config.network, 'devnet')
  t.equal(config.cores.sha3, 'js')
})
