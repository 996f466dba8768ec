// Issue 16 item 3: the example plugin package (examples/block-stats-plugin) passes its own
// typecheck and its own test from its own package folder. A fresh clone runs `npm install`
// there (ledger-node is a `file:../..` dependency, linked); here, offline, a copy of the package
// gets the same links by hand: ledger-node -> this repository, every other devDependency -> this
// repository's node_modules. Then `npm run typecheck` and `npm test` run in the copy.
import t from 'tap'
import path from 'node:path'
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync } from 'node:fs'
import { cleanup, tmpDir } from '../helpers/chain.ts'
import { npm } from './fixtures/example-package.ts'

const ROOT = path.resolve(import.meta.dirname, '..', '..')
const EXAMPLE = path.join(ROOT, 'examples', 'block-stats-plugin')
/** what a plugin may import of the node: its public entry points (package.json `exports`) */
const PUBLIC_ENTRY_POINTS = ['ledger-node/plugin', 'ledger-node/hooks', 'ledger-node/services', 'ledger-node/client', 'ledger-node/config', 'ledger-node/http', 'ledger-node/errors', 'ledger-node/package.json']

interface PackageJson { name: string; exports: Record<string, string>; scripts: Record<string, string>; peerDependencies: Record<string, string>; devDependencies: Record<string, string>; tap?: { plugin?: string[] } }
const pkg = JSON.parse(readFileSync(path.join(EXAMPLE, 'package.json'), 'utf8')) as PackageJson

// typecheck (tens of seconds on a loaded machine) plus a real node that mines and confirms a transfer
t.setTimeout(300_000)

function sourceFiles (dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    if (d.name === 'node_modules' || d.name.startsWith('.')) return []
    const p = path.join(dir, d.name)
    return d.isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : []
  })
}

t.test('the example is its own package and imports the node only through its public entry points', async (t) => {
  t.equal(pkg.name, 'ledger-plugin-block-stats')
  t.ok(pkg.peerDependencies['ledger-node'], 'ledger-node is a peer dependency')
  t.equal(path.resolve(EXAMPLE, (pkg.devDependencies['ledger-node'] ?? '').replace(/^file:/, '')), ROOT, 'its devDependency ledger-node links this repository')
  const rootPkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as PackageJson
  t.same(Object.keys(rootPkg.exports).map((k) => `ledger-node${k.slice(1)}`).sort(), [...PUBLIC_ENTRY_POINTS].sort(), 'the entry points are exactly the exports')
  // one tap build serves both: a different plugin list would rebuild tap in the shared node_modules
  t.same(pkg.tap?.plugin, rootPkg.tap?.plugin, 'the example lists the same tap plugins as the repository')
  const files = sourceFiles(EXAMPLE)
  t.ok(files.length >= 3, 'manifest, config and test')
  const imported = new Set<string>()
  const outside: string[] = []
  for (const file of files) {
    const source = readFileSync(file, 'utf8')
    const specifiers = [...source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'|declare module '([^']+)'|import\('([^']+)'\)|import\.meta\.resolve\('([^']+)'\)/g)]
      .map((m) => m[1] ?? m[2] ?? m[3] ?? m[4] ?? '')
    for (const s of specifiers) {
      imported.add(s)
      const ok = s.startsWith('node:') || s === 'tap' || PUBLIC_ENTRY_POINTS.includes(s) || (s.startsWith('./') && path.resolve(path.dirname(file), s).startsWith(EXAMPLE + path.sep))
      if (!ok) outside.push(`${path.relative(EXAMPLE, file)} imports '${s}'`)
    }
  }
  t.same(outside, [], 'no import reaches past the public entry points')
  for (const s of ['ledger-node/plugin', 'ledger-node/hooks', 'ledger-node/services', 'ledger-node/client', 'ledger-node/config']) t.ok(imported.has(s), `the example uses ${s}`)
})

t.test('the example package passes its typecheck and its own test from its own folder', async (t) => {
  const dir = tmpDir('ledger-example-')
  t.teardown(() => cleanup(dir))
  const copy = path.join(dir, pkg.name)
  cpSync(EXAMPLE, copy, { recursive: true, filter: (src) => !['node_modules', '.tap'].includes(path.basename(src)) })
  for (const dep of Object.keys(pkg.devDependencies)) {
    const target = dep === 'ledger-node' ? ROOT : path.join(ROOT, 'node_modules', dep)
    t.ok(existsSync(target), `devDependency ${dep} is installed in this repository`)
    const link = path.join(copy, 'node_modules', dep)
    mkdirSync(path.dirname(link), { recursive: true })
    symlinkSync(target, link, 'dir')
  }

  const typecheck = await npm(['run', 'typecheck'], copy, 120_000)
  t.equal(typecheck.code, 0, 'npm run typecheck passes', typecheck.code === 0 ? {} : { output: typecheck.output })

  const test = await npm(['test'], copy, 170_000)
  t.equal(test.code, 0, 'npm test passes', test.code === 0 ? {} : { output: test.output })
  const summary = /# \{ total: (\d+), pass: (\d+)(?:, fail: (\d+))?/.exec(test.output)
  t.ok(summary !== null, 'tap printed its summary')
  t.ok(Number(summary?.[2]) > 0 && summary?.[3] === undefined, `the plugin's own test passed: ${summary?.[0] ?? 'no summary'}`)
})
