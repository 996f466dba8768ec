// Builds tap's Test class for the plugins package.json lists, once per list (and tap version).
// tap rebuilds by itself when the list differs from its build, but only for later runs: the run
// that notices still spawns its test processes with the old build's loaders. In a fresh clone
// (CI) that is tap's default set, whose @tapjs/typescript runs every test file through ts-node,
// ~40% slower than Node's own type stripping. `npm run tap` (behind `npm test`) runs this first.
import { createHash } from 'node:crypto'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const readJson = (file: string): unknown => JSON.parse(readFileSync(path.join(root, file), 'utf8'))
const plugins = (readJson('package.json') as { tap?: { plugin?: string[] } }).tap?.plugin ?? []
const tapVersion = (readJson('node_modules/tap/package.json') as { version: string }).version
const key = createHash('sha256').update(JSON.stringify({ plugins, tapVersion })).digest('hex').slice(0, 16)
const stamp = path.join(root, 'node_modules', '.cache', 'tap-build', key)
if (!existsSync(stamp)) {
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'tap', 'dist', 'esm', 'run.mjs'), 'build'], { cwd: root, stdio: 'inherit' })
  mkdirSync(path.dirname(stamp), { recursive: true })
  writeFileSync(stamp, `${JSON.stringify({ plugins, tapVersion })}\n`)
}
