// Compiles every top-level wasm/assembly/<name>.ts (one core each) to wasm/build/<name>.wasm
// with the shared options in asconfig.json. Runs as `postinstall` and `npm run build:wasm`;
// offline, a few seconds; exits non-zero naming the core that failed.
import { mkdir, readdir } from 'node:fs/promises'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const sourceDir = join(root, 'wasm', 'assembly')
const buildDir = join(root, 'wasm', 'build')

async function coreNames (): Promise<string[]> {
  const entries = await readdir(sourceDir, { withFileTypes: true })
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => e.name.slice(0, -'.ts'.length))
    .sort()
}

async function compile (name: string): Promise<void> {
  // loaded here so a missing compiler is reported as a build failure, not an import crash
  const { default: asc } = await import('assemblyscript/asc')
  const started = performance.now()
  const result = await asc.main([
    relative(root, join(sourceDir, `${name}.ts`)),
    '--config', 'asconfig.json',
    '--outFile', relative(root, join(buildDir, `${name}.wasm`))
  ])
  if (result.error !== null) {
    throw new Error(`${name}: ${result.error.message}\n${result.stderr.toString()}`)
  }
  const ms = Math.round(performance.now() - started)
  console.log(`build-wasm: ${name}.ts -> wasm/build/${name}.wasm (${ms} ms)`)
}

async function main (): Promise<void> {
  process.chdir(root)
  const names = await coreNames()
  if (names.length === 0) throw new Error(`no cores found in ${relative(root, sourceDir)}`)
  await mkdir(buildDir, { recursive: true })
  // one at a time: the compiler shares one binaryen instance
  for (const name of names) await compile(name)
}

main().catch((err: unknown) => {
  console.error(`build-wasm: FAILED ${err instanceof Error ? err.message : String(err)}`)
  process.exitCode = 1
})
