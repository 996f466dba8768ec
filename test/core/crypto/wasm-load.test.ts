import { existsSync } from 'node:fs'
import t from 'tap'
import { WasmCoreMissingError, loadWasmCore, wasmCorePath } from '../../../core/wasm/load.ts'

t.test('a built core loads synchronously and exports its memory', async (t) => {
  t.ok(existsSync(wasmCorePath('sha3')), 'npm install built wasm/build/sha3.wasm')
  const instance = loadWasmCore('sha3')
  t.ok(instance.exports.memory instanceof WebAssembly.Memory)
})

t.test('a missing core says how to build it', async (t) => {
  t.throws(() => loadWasmCore('no-such-core'), WasmCoreMissingError)
  t.throws(() => loadWasmCore('no-such-core'), /no-such-core\.wasm is missing\): run `npm run build:wasm`/)
})
