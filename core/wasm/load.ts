// Synchronous loader for the AssemblyScript cores built by scripts/build-wasm.ts into
// wasm/build/<name>.wasm. Synchronous so that hashing stays a plain function call: a core is
// compiled on its first use and kept for the life of the thread (each worker loads its own).
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const buildDir = new URL('../../wasm/build/', import.meta.url)
const modules = new Map<string, WebAssembly.Module>()

export class WasmCoreMissingError extends Error {
  constructor (name: string, path: string) {
    super(`WASM core "${name}" is not built (${path} is missing): run \`npm run build:wasm\``)
    this.name = 'WasmCoreMissingError'
  }
}

/** Path of a core's .wasm file. */
export function wasmCorePath (name: string): string {
  return fileURLToPath(new URL(`${name}.wasm`, buildDir))
}

function compiledModule (name: string): WebAssembly.Module {
  let mod = modules.get(name)
  if (mod === undefined) {
    const path = wasmCorePath(name)
    let bytes: Buffer<ArrayBuffer>
    try {
      bytes = readFileSync(path)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new WasmCoreMissingError(name, path)
      throw err
    }
    mod = new WebAssembly.Module(bytes)
    modules.set(name, mod)
  }
  return mod
}

/**
 * Instantiates wasm/build/<name>.wasm. `env.abort` is provided for cores built with
 * assertions on; `imports` adds or overrides anything else a core needs.
 */
export function loadWasmCore (name: string, imports: WebAssembly.Imports = {}): WebAssembly.Instance {
  const env = {
    abort (_message: number, _file: number, line: number, column: number): never {
      throw new Error(`WASM core "${name}" aborted at ${line}:${column}`)
    },
    ...imports.env
  }
  return new WebAssembly.Instance(compiledModule(name), { ...imports, env })
}

/** What every core exports: its memory (its buffers are static, so it never grows). */
export interface WasmCoreExports { memory: WebAssembly.Memory }

/** A loaded core: what `describe` read from it, its exports and a view of its memory. */
export type LoadedWasmCore<E extends WasmCoreExports, T> = T & { exports: E; memory: Uint8Array }

/**
 * A core instantiated on its first use and kept for the life of the thread, with what
 * `describe` reads from it once (its buffers' pointers and sizes) beside its exports and a
 * view of its memory (valid for good: the cores' memories never grow).
 */
export function lazyWasmCore<E extends WasmCoreExports, T> (name: string, describe: (exports: E) => T): () => LoadedWasmCore<E, T> {
  let loaded: LoadedWasmCore<E, T> | null = null
  return () => {
    if (loaded === null) {
      const exports = loadWasmCore(name).exports as unknown as E
      loaded = { ...describe(exports), exports, memory: new Uint8Array(exports.memory.buffer) }
    }
    return loaded
  }
}
