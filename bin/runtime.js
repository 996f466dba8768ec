// Which Node runs `ledger` (issue 29): the CLI needs the Node its package pins (the `node`
// dependency, ^24). Started by another Node (a system Node 20 on PATH, a node started from a
// plugin's folder), the launcher runs the same command on the pinned runtime where it is
// installed beside ledger-node, or says exactly which Node it needs. Plain JavaScript that
// every Node since 14 can parse and run, so the check itself never crashes.
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** the range of the `node` dependency ("^24.21.0") */
export function requiredNodeRange () {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'))
  return (pkg.dependencies && pkg.dependencies.node) || '>=24'
}

/** the major and minimum version a caret/>= range names ("^24.21.0" -> { major: 24, min: [24, 21, 0] }) */
export function parseRange (range) {
  const m = /(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(range)
  if (m === null) return { major: 24, min: [24, 0, 0] }
  return { major: Number(m[1]), min: [Number(m[1]), Number(m[2] || 0), Number(m[3] || 0)] }
}

/** whether `version` ("24.21.0") satisfies ^min: same major, not older */
export function satisfies (version, range) {
  const { major, min } = parseRange(range)
  const v = version.split('.').map(Number)
  if (v[0] !== major) return false
  for (let i = 0; i < 3; i++) {
    if ((v[i] || 0) > min[i]) return true
    if ((v[i] || 0) < min[i]) return false
  }
  return true
}

/** the pinned runtime's executable, as npm installed the `node` package for ledger-node */
export function pinnedNode () {
  try {
    const require = createRequire(path.join(ROOT, 'package.json'))
    const bin = path.join(path.dirname(require.resolve('node/package.json')), 'bin', 'node')
    return existsSync(bin) ? bin : undefined
  } catch { return undefined }
}

/** what to tell a user whose Node cannot run ledger and who has no pinned runtime installed */
export function wrongNodeMessage (version, execPath, range) {
  return `ledger: ledger-node needs Node ${range} (Node ${parseRange(range).major}); this is Node ${version} (${execPath}). ` +
    `Run 'npm install' in ${ROOT} to install the pinned runtime it runs on, or put Node ${parseRange(range).major} first on PATH.`
}
