// The package's public entry points (issue 16 item 3): each `exports` entry resolves to its
// file and loads, and nothing else of the tree can be imported by the package's name. A file
// inside the package reaches its own exports by name (Node's package self-reference), exactly
// as a plugin package that depends on ledger-node does.
import t from 'tap'
import path from 'node:path'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(import.meta.dirname, '..', '..')
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string; exports: Record<string, string> }

t.test('the entry points are the public contract, and each one loads', async (t) => {
  t.same(Object.keys(pkg.exports).sort(), ['./client', './config', './errors', './hooks', './http', './package.json', './plugin', './services'])
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const specifier = `${pkg.name}${subpath.slice(1)}`
    t.equal(fileURLToPath(import.meta.resolve(specifier)), path.join(ROOT, target), `${specifier} -> ${target}`)
    if (target.endsWith('.ts')) t.type(await import(specifier), 'object', `${specifier} loads`)
  }
  const plugin = await import('ledger-node/plugin')
  t.type(plugin.definePlugin, 'function', 'ledger-node/plugin exports definePlugin')
  const config = await import('ledger-node/config')
  t.type(config.defineConfig, 'function', 'ledger-node/config exports defineConfig')
  const errors = await import('ledger-node/errors')
  t.type(errors.HttpError, 'function', 'ledger-node/errors exports HttpError')
  const http = await import('ledger-node/http')
  t.type(http.rateRuleSchema, 'function', 'ledger-node/http exports rateRuleSchema')
  const client = await import('ledger-node/client')
  t.type(client.LedgerClient, 'function', 'ledger-node/client exports LedgerClient')
})

t.test('the rest of the tree is not importable by the package name', async (t) => {
  for (const specifier of ['ledger-node', 'ledger-node/core/kernel/kernel.ts', 'ledger-node/plugins/miner/manifest.ts', 'ledger-node/bin/ledger.ts']) {
    // Node's resolver sets `code`; under a TypeScript loader (tap's, in a fresh clone) the same
    // refusal arrives with the code in its message only
    let refusal: unknown
    try { import.meta.resolve(specifier) } catch (err) { refusal = err }
    const said = refusal instanceof Error ? `${String((refusal as NodeJS.ErrnoException).code)} ${refusal.message}` : 'resolved'
    t.match(said, /ERR_PACKAGE_PATH_NOT_EXPORTED/, specifier)
  }
})
