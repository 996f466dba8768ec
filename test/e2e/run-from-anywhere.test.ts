// A node run from any folder (issue 29): the CLI started by another Node than the pinned one
// runs on the pinned runtime, or says exactly which Node it needs; a config file in a CommonJS
// folder gets the fix in words instead of "Cannot use import statement outside a module".
import t from 'tap'
import path from 'node:path'
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { cleanup, tmpDir } from '../helpers/chain.ts'
import { NODE, ROOT } from './fixtures/cli-node.ts'

const LAUNCHER = path.join(ROOT, 'bin', 'ledger.js')
/** the environment a user's shell has: not the tap run's loaders */
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(TAP|_TAPJS|NODE_OPTIONS$)/i.test(k)))

/** the Nodes on PATH other than the pinned one, with their versions */
function otherNodes (): Array<{ bin: string; version: string }> {
  const found = spawnSync('which', ['-a', 'node'], { encoding: 'utf8' }).stdout.split('\n').filter((l) => l.length > 0)
  return found.map((bin) => ({ bin, version: spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim() }))
    .filter((n) => !n.version.startsWith('v24.'))
}

t.test('an older Node on PATH runs the command on the pinned runtime', async (t) => {
  const others = otherNodes()
  t.comment(others.length === 0 ? 'no other Node on PATH: the pretend-old Node below covers the refusal' : `other Nodes: ${others.map((n) => `${n.bin} ${n.version}`).join(', ')}`)
  for (const other of others) {
    const out = execFileSync(other.bin, [LAUNCHER, '--version'], { encoding: 'utf8', cwd: tmpDir('ledger-anywhere-'), env })
    t.match(out.trim(), /^ledger-node \d+\.\d+\.\d+ \(protocol \d+, node 24\.\d+\.\d+\)$/, `${other.bin} (${other.version}) handed over to Node 24`)
  }
  // a Node that calls itself 20 and is the pinned binary itself: nothing to hand over to, one line
  const dir = tmpDir('ledger-anywhere-')
  t.teardown(() => cleanup(dir))
  const pretend = path.join(dir, 'pretend-old.mjs')
  writeFileSync(pretend, "Object.defineProperty(process.versions, 'node', { value: '20.1.0' })\n")
  const r = spawnSync(NODE, ['--import', pretend, LAUNCHER, '--version'], { encoding: 'utf8', cwd: dir, env })
  t.equal(r.status, 1)
  t.match(r.stderr, /^ledger: ledger-node needs Node \^24\.\d+\.\d+ \(Node 24\); this is Node 20\.1\.0 \(.+\)\. Run 'npm install' in .+ to install the pinned runtime it runs on, or put Node 24 first on PATH\.\n$/)
})

t.test('a config in a CommonJS folder: the fix in words; the rename it suggests runs', async (t) => {
  const dir = tmpDir('ledger-anywhere-')
  t.teardown(() => cleanup(dir))
  mkdirSync(path.join(dir, 'node_modules'))
  symlinkSync(ROOT, path.join(dir, 'node_modules', 'ledger-node'), 'dir')
  const pkg = path.join(dir, 'package.json')
  writeFileSync(pkg, JSON.stringify({ name: 'operator', type: 'commonjs' }))
  const body = "import { defineConfig } from 'ledger-node/config'\nexport default defineConfig({ network: 'devnet', plugins: ['nonexistent-plugin-x'] })\n"
  writeFileSync(path.join(dir, 'ledger.config.ts'), body)
  const r = spawnSync(NODE, [LAUNCHER, 'run', '--data-dir', path.join(dir, 'data')], { encoding: 'utf8', cwd: dir, env, timeout: 60_000 })
  t.equal(r.status, 2)
  t.ok(r.stderr.includes(`ledger: config file ${path.join(dir, 'ledger.config.ts')} uses import/export, but ${pkg} makes .ts files in its folder CommonJS ("type": "commonjs"): rename the config to ledger.config.mts (and pass --config ledger.config.mts), or set "type": "module" in ${pkg}\n`), r.stderr)
  writeFileSync(path.join(dir, 'ledger.config.mts'), body)
  const renamed = spawnSync(NODE, [LAUNCHER, 'run', '--config', 'ledger.config.mts', '--data-dir', path.join(dir, 'data')], { encoding: 'utf8', cwd: dir, env, timeout: 60_000 })
  t.equal(renamed.status, 2)
  t.match(renamed.stderr, /plugin 'nonexistent-plugin-x' not found/, 'the renamed config loads (and names its own mistake)')
})
