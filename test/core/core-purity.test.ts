// core/ is the kernel plus pure libraries (issue 29.6): no HTTP and no I/O outside the kernel.
// Checked on every module under core/ (static imports, re-exports and `import('literal')`):
//
// - HTTP: no module imports fastify, @fastify/*, or a socket or HTTP module of Node (http,
//   https, http2, net, tls, dgram), at run time or as a type, except two type-only imports:
//   the contracts of the `http` and `publicHttp` services (core/kernel/http-service.ts,
//   core/kernel/services.ts) name fastify's types, which vanish when types are stripped.
//   HTTP itself lives in plugins/http, and routes in the plugins that serve them. Nor does a
//   library outside core/kernel import core/kernel/errors.ts: HttpError is what a route handler
//   throws, so a library that threw it would be choosing status codes (core/views used to).
// - Files and processes: node:fs (and fs/promises, child_process) only where the node itself
//   must touch its disk before any plugin runs, each named below with the reason. Everything a
//   plugin stores goes through the `chainDb` / `adminDb` key-value services.
//
// A new entry in an allow-list is a design decision: write its reason beside it.
import t from 'tap'
import path from 'node:path'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { withoutComments } from '../helpers/source.ts'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const CORE = path.join(ROOT, 'core')

const HTTP_MODULES = /^(fastify|@fastify\/.*|(node:)?(http|https|http2|net|tls|dgram))$/
const FILE_MODULES = /^(node:)?(fs|fs\/promises|child_process)$/

/** type-only fastify imports: the service contracts that hand plugins a fastify server */
const FASTIFY_TYPES_ALLOWED: Record<string, string> = {
  'core/kernel/http-service.ts': 'the `http` service contract: routes and hooks take fastify requests and servers',
  'core/kernel/services.ts': 'the `publicHttp` service is a FastifyInstance'
}

/** modules that read or write files, and why they must */
const FILE_IO_ALLOWED: Record<string, string> = {
  'core/kernel/cli.ts': 'reads the package version and looks for ./ledger.config.ts before any plugin loads',
  'core/kernel/config-file.ts': 'reads ledger.config.ts (and its package.json type) to load the profile',
  'core/kernel/data-dir-lock.ts': 'takes the data dir lock before anything else touches the dir',
  'core/kernel/kernel.ts': 'creates and checks the data dir',
  'core/kernel/lifecycle.ts': 'reads /proc to tell whether the parent that started the node is still alive (a shell or a supervisor)',
  'core/kernel/loader.ts': 'finds plugin manifests and packages on disk',
  'core/kernel/plugin-api.ts': 'reads the node\'s package version, which a plugin package\'s peerDependencies names',
  'core/kernel/plugin-package.ts': 'resolves a plugin package as Node would (package.json exports)',
  'core/kernel/wallet-file.ts': 'writes a wallet file atomically, owner-only (the node and the wallet tool share it)',
  'core/kernel/wallet-keystore-file.ts': 'reads an encrypted wallet file',
  'core/wasm/load.ts': 'reads the compiled .wasm cores shipped beside it, once at load'
}

interface ImportRef { file: string; specifier: string; typeOnly: boolean }

const STATIC = /(?:^|[\n;}])\s*(import|export)\s+(type\s+)?([^;=()'"`]*?)\s*from\s*(['"])([^'"]+)\4/g
const BARE = /(?:^|[\n;}])\s*import\s*(['"])([^'"]+)\1/g
const DYNAMIC = /\bimport\s*\(\s*(['"])([^'"]+)\1\s*\)/g

/** every module a source imports, and whether only types come from it */
export function importsOf (file: string, code: string): ImportRef[] {
  const refs: ImportRef[] = []
  for (const m of code.matchAll(STATIC)) {
    const clause = (m[3] ?? '').trim()
    const inner = /^\{([\s\S]*)\}$/.exec(clause)
    const allInlineTypes = inner !== null && inner[1]!.split(',').map((s) => s.trim()).filter((s) => s !== '').every((s) => s.startsWith('type '))
    refs.push({ file, specifier: m[5] as string, typeOnly: m[2] !== undefined || allInlineTypes })
  }
  for (const m of code.matchAll(BARE)) refs.push({ file, specifier: m[2] as string, typeOnly: false })
  for (const m of code.matchAll(DYNAMIC)) refs.push({ file, specifier: m[2] as string, typeOnly: false })
  return refs
}

function coreImports (): ImportRef[] {
  return readdirSync(CORE, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile() && d.name.endsWith('.ts'))
    .map((d) => path.join(d.parentPath, d.name))
    .flatMap((f) => importsOf(path.relative(ROOT, f).split(path.sep).join('/'), withoutComments(readFileSync(f, 'utf8'))))
}

t.test('importsOf reads every import form and tells type-only ones apart', async (t) => {
  const code = [
    "import type { FastifyInstance } from 'fastify'",
    "import { type A, type B } from './a.ts'",
    "import { readFileSync } from 'node:fs'",
    "export { x } from './x.ts'",
    "import 'node:net'",
    "const m = await import('node:http')",
    "export const s = 'from'"
  ].join('\n')
  t.same(importsOf('f.ts', code).map((r) => [r.specifier, r.typeOnly]), [
    ['fastify', true], ['./a.ts', true], ['node:fs', false], ['./x.ts', false], ['node:net', false], ['node:http', false]
  ])
})

const refs = coreImports()

t.test('the walk sees core', async (t) => {
  t.ok(refs.length > 300, `${refs.length} imports read`)
  t.ok(refs.some((r) => r.file === 'core/kernel/http-service.ts' && r.specifier === 'fastify'), 'the known fastify type import is seen')
  t.ok(refs.some((r) => r.file === 'core/wasm/load.ts' && FILE_MODULES.test(r.specifier)), 'the known file import is seen')
})

t.test('nothing under core/ imports HTTP (type-only fastify in the service contracts aside)', async (t) => {
  const bad = refs
    .filter((r) => HTTP_MODULES.test(r.specifier))
    .filter((r) => !(r.typeOnly && r.specifier === 'fastify' && FASTIFY_TYPES_ALLOWED[r.file] !== undefined))
    .map((r) => `${r.file} imports ${r.specifier}${r.typeOnly ? ' (types)' : ''}`)
  t.same(bad, [])
})

t.test('nothing under core/ touches files but the allow-listed kernel modules and the wasm loader', async (t) => {
  const bad = refs
    .filter((r) => FILE_MODULES.test(r.specifier) && !r.typeOnly && FILE_IO_ALLOWED[r.file] === undefined)
    .map((r) => `${r.file} imports ${r.specifier}`)
  t.same(bad, [])
  // an allow-list entry that no longer imports a file module is stale: drop it
  const stale = Object.keys(FILE_IO_ALLOWED).filter((f) => !refs.some((r) => r.file === f && FILE_MODULES.test(r.specifier)))
  t.same(stale, [], 'every allow-listed module still needs it')
})

t.test('no core library outside the kernel throws HTTP errors', async (t) => {
  const errorsModule = 'core/kernel/errors.ts'
  const bad = refs
    .filter((r) => !r.file.startsWith('core/kernel/') && r.specifier.startsWith('.'))
    .filter((r) => path.posix.join(path.posix.dirname(r.file), r.specifier) === errorsModule)
    .map((r) => `${r.file} imports ${errorsModule}`)
  t.same(bad, [])
})
