// Plugins listed by npm package name: found the way Node finds a bare import written in the
// config file, built-ins first, with errors that say what is missing.
import t from 'tap'
import path from 'node:path'
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { loadPlugins, PluginLoadError } from '../../core/kernel/loader.ts'
import { mainEntryOf } from '../../core/kernel/plugin-package.ts'
import { startTestNode } from '../helpers/node.ts'
import { cleanup, mineBlock, testParams, tmpDir } from '../helpers/chain.ts'

const ROOT = path.resolve(import.meta.dirname, '..', '..')
const PLUGIN_CONTRACT = pathToFileURL(path.join(ROOT, 'core', 'kernel', 'plugin.ts')).href

/** a plugin manifest in JavaScript (Node strips no types under node_modules) */
function manifestJs (name: string, extra = ''): string {
  return `export default { name: '${name}', description: 'test', apiVersion: '1.0', provides: [], needs: [], register () {} ${extra} }\n`
}

function writePackage (dir: string, pkg: Record<string, unknown>, files: Record<string, string>): string {
  mkdirSync(dir, { recursive: true })
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module', ...pkg }))
  for (const [file, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
    writeFileSync(path.join(dir, file), body)
  }
  return dir
}

async function loadError (entries: Parameters<typeof loadPlugins>[0], baseDir: string): Promise<Error> {
  try { await loadPlugins(entries, baseDir) } catch (err) { return err as Error }
  throw new Error('loading did not fail')
}

t.test('the main entry is what an import of the package loads', async (t) => {
  t.equal(mainEntryOf({ exports: './m.js' }), './m.js')
  t.equal(mainEntryOf({ exports: { '.': './m.js', './extra': './x.js' } }), './m.js')
  t.equal(mainEntryOf({ exports: { '.': { types: './m.d.ts', import: './m.js', require: './m.cjs' } } }), './m.js', 'the import condition, not types or require')
  t.equal(mainEntryOf({ exports: { require: './m.cjs', default: './m.js' } }), './m.js', 'conditions without subpaths')
  t.equal(mainEntryOf({ exports: { '.': { node: { import: './n.js' }, default: './d.js' } } }), './n.js', 'nested conditions, in key order')
  t.equal(mainEntryOf({ exports: [{ browser: './b.js' }, './m.js'] }), './m.js', 'the first usable target of an array')
  t.equal(mainEntryOf({ main: 'lib/main.js' }), 'lib/main.js', 'main without exports')
  t.equal(mainEntryOf({}), 'index.js')
  t.equal(mainEntryOf({ exports: { './extra': './x.js' } }), undefined, 'no "." subpath')
  t.equal(mainEntryOf({ exports: { '.': { require: './m.cjs' } } }), undefined, 'only a require target')
  t.equal(mainEntryOf({ exports: '../outside.js' }), undefined, 'a target must start with ./')
})

t.test('entries by package name', async (t) => {
  const dir = tmpDir('ledger-plugin-pkg-')
  t.teardown(() => cleanup(dir))
  const nm = path.join(dir, 'node_modules')
  writePackage(path.join(nm, 'ledger-plugin-alpha'), { name: 'ledger-plugin-alpha', exports: { '.': { import: './dist/manifest.js' } } }, { 'dist/manifest.js': manifestJs('alpha') })
  writePackage(path.join(nm, '@acme', 'ledger-beta'), { name: '@acme/ledger-beta', main: 'plugin.js' }, { 'plugin.js': manifestJs('beta') })
  // a package that shadows a built-in's name, and one whose manifest takes a built-in's name
  writePackage(path.join(nm, 'storage'), { name: 'storage', exports: './m.js' }, { 'm.js': manifestJs('not-the-storage') })
  writePackage(path.join(nm, 'ledger-plugin-imposter'), { name: 'ledger-plugin-imposter', exports: './m.js' }, { 'm.js': manifestJs('storage') })
  writePackage(path.join(nm, 'ledger-plugin-noentry'), { name: 'ledger-plugin-noentry', exports: { './x': './x.js' } }, { 'x.js': manifestJs('x') })
  writePackage(path.join(nm, 'ledger-plugin-gone'), { name: 'ledger-plugin-gone', exports: './missing.js' }, {})
  writePackage(path.join(nm, 'ledger-plugin-noexport'), { name: 'ledger-plugin-noexport', exports: './m.js' }, { 'm.js': 'export const x = 1\n' })
  // TypeScript copied into node_modules: Node does not strip it there
  writePackage(path.join(nm, 'ledger-plugin-ts-copy'), { name: 'ledger-plugin-ts-copy', exports: './manifest.ts' }, { 'manifest.ts': "const n: string = 'ts-copy'\nexport default { name: n, description: '', apiVersion: '1.0', provides: [], needs: [], register () {} }\n" })
  // TypeScript linked into node_modules (npm install <folder>): its real path is outside
  const linked = writePackage(path.join(dir, 'src', 'ts-linked'), { name: 'ledger-plugin-ts-linked', exports: { '.': './manifest.ts' } }, {
    'manifest.ts': `import { definePlugin } from '${PLUGIN_CONTRACT}'\nexport default definePlugin({ name: 'ts-linked', description: '', apiVersion: '1.0', provides: [], needs: [], register (): void {} })\n`
  })
  symlinkSync(linked, path.join(nm, 'ledger-plugin-ts-linked'), 'dir')
  // the config file sits in a sub-folder: node_modules is found further up, as Node finds it
  const baseDir = path.join(dir, 'node-profile')
  mkdirSync(baseDir)

  await t.test('a name that is no built-in is a package; { package } always is', async (t) => {
    const loaded = await loadPlugins(['ledger-plugin-alpha', { package: '@acme/ledger-beta' }, { name: 'ledger-plugin-ts-linked', enabled: false }], baseDir)
    t.same(loaded.map((l) => [l.manifest.name, l.origin, l.enabled]), [
      ['alpha', "package 'ledger-plugin-alpha'", true],
      ['beta', "package '@acme/ledger-beta'", true],
      ['ts-linked', "package 'ledger-plugin-ts-linked'", false]
    ])
    t.equal(loaded[0]?.source, path.join(nm, 'ledger-plugin-alpha', 'dist', 'manifest.js'), 'the import condition of exports')
  })

  await t.test('built-in names keep priority; { package } reaches a package that shares one', async (t) => {
    const [builtin, pkg] = await loadPlugins(['storage', { package: 'storage' }], baseDir)
    t.equal(builtin?.origin, "built-in 'storage'")
    t.equal(builtin?.source, path.join(ROOT, 'plugins', 'storage', 'manifest.ts'))
    t.equal(pkg?.manifest.name, 'not-the-storage')
  })

  await t.test('a package whose manifest takes a listed plugin\'s name is refused, naming both', async (t) => {
    const err = await loadError(['storage', 'ledger-plugin-imposter'], baseDir)
    t.type(err, PluginLoadError)
    t.equal(err.message, "plugin 'storage' is listed twice: built-in 'storage' and package 'ledger-plugin-imposter' both name themselves 'storage'")
  })

  await t.test('what is missing is said', async (t) => {
    let err = await loadError(['ledger-plugin-nope'], baseDir)
    t.type(err, PluginLoadError)
    t.match(err.message, "plugin 'ledger-plugin-nope' not found: it is not a built-in plugin (")
    t.match(err.message, 'consensus')
    t.match(err.message, `and no package 'ledger-plugin-nope' is installed for ${baseDir}; install it next to the config file (npm install ledger-plugin-nope in ${baseDir})`)
    err = await loadError([{ package: 'chain' }], baseDir)
    t.equal(err.message, `plugin package 'chain' is not installed for ${baseDir}; install it next to the config file (npm install chain in ${baseDir})`)
    err = await loadError(['ledger-plugin-noentry'], baseDir)
    t.match(err.message, /^plugin package 'ledger-plugin-noentry' has no entry point: .*package\.json has no "exports" entry for "\."/)
    err = await loadError(['ledger-plugin-gone'], baseDir)
    t.match(err.message, /^plugin package 'ledger-plugin-gone' has no entry point: .*entry \.\/missing\.js does not exist/)
    err = await loadError(['ledger-plugin-noexport'], baseDir)
    t.equal(err.message, "plugin 'ledger-plugin-noexport' has no default-exported manifest")
    err = await loadError(['ledger-plugin-ts-copy'], baseDir)
    t.match(err.message, "plugin 'ledger-plugin-ts-copy' failed to load: ")
    t.match(err.message, 'a plugin written in TypeScript must be linked, e.g. npm install <its folder>, or published as JavaScript')
    err = await loadError([{ package: '../escape' }], baseDir)
    t.equal(err.message, "invalid plugin package name '../escape'")
    err = await loadError([{ name: 'storage', package: 'storage' }], baseDir)
    t.equal(err.message, 'plugin entry {"name":"storage","package":"storage"} must have exactly one of name, package and path')
  })
})

t.test('a node boots with a package plugin next to the built-ins, and its hooks and service work', async (t) => {
  const dir = tmpDir('ledger-plugin-pkg-')
  t.teardown(() => cleanup(dir))
  writePackage(path.join(dir, 'node_modules', 'ledger-plugin-tip-watch'), { name: 'ledger-plugin-tip-watch', exports: './manifest.js' }, {
    'manifest.js': `export default {
  name: 'tip-watch', description: 'remembers the tip', apiVersion: '1.0', provides: ['peers'], needs: ['chain'],
  register (ctx) {
    const seen = []
    ctx.hooks.tipChanged.tap('tip-watch', (tip) => { seen.push(tip.height) })
    ctx.provide('peers', { peers: () => [], syncState: () => 'idle', seen })
  }
}
`
  })
  const node = await startTestNode({ plugins: ['storage', 'consensus', 'ledger-plugin-tip-watch'], config: { baseDir: dir } })
  t.teardown(() => node.stop())
  const chain = node.resolve('chain')
  const tip = chain.tip()
  await chain.processBlock(mineBlock(testParams(), { hash: tip.hash, height: tip.height, timestamp: tip.timestamp }), 'test')
  t.same((node.resolve('peers') as unknown as { seen: number[] }).seen, [1])
})
