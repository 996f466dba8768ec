// Issue 14 item 16: `npm install` runs on the system's Node (20 here) while the project runs on
// the pinned Node 24 (the `node` package). Every dependency that declares an engine Node 20
// does not meet must accept the pinned Node 24 — then npm's EBADENGINE warnings on Node 20 are
// harmless — and the README must name each of them, so what it tells the user stays true.
import t from 'tap'
import path from 'node:path'
import { readFileSync } from 'node:fs'

const ROOT = path.resolve(import.meta.dirname, '..', '..')
type Version = [number, number, number]

function parse (v: string): Version {
  const [a = 0, b = 0, c = 0] = v.replace(/^v/, '').split('.').map((x) => Number.parseInt(x, 10))
  return [a, b, c]
}

const cmp = (a: Version, b: Version): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]

/** The engine range forms found in package-lock.json; an unknown form fails the test. */
function comparator (c: string, v: Version): boolean {
  if (c === '*') return true
  let m = /^>=(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?$/.exec(c)
  if (m !== null) return cmp(v, [Number(m[1]), Number(m[2]) || 0, Number(m[3]) || 0]) >= 0
  m = /^\^(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(c)
  if (m !== null) return v[0] === Number(m[1]) && cmp(v, [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)]) >= 0
  m = /^(\d+)(?:\.(?:\*|x))?$/.exec(c)
  if (m !== null) return v[0] === Number(m[1])
  throw new Error(`engine range form not understood: ${c}`)
}

export function satisfies (version: string, range: string): boolean {
  const v = parse(version)
  return range.split('||').some((alt) => alt.trim().replace(/>=\s+/g, '>=').split(/\s+/).every((c) => comparator(c, v)))
}

t.test('range checks', async (t) => {
  t.ok(satisfies('20.20.2', '^20.17.0 || >=22.9.0'))
  t.notOk(satisfies('20.20.2', '>=22'))
  t.ok(satisfies('24.21.0', '>=22'))
  t.ok(satisfies('20.1.0', '18 || 20 || >=22'))
  t.ok(satisfies('16.0.0', '>=16 || 14 >=14.17'))
  t.notOk(satisfies('14.10.0', '>=16 || 14 >=14.17'))
  t.ok(satisfies('10.5.0', '10.* || >= 12.*'))
})

t.test('packages that warn on Node 20 run on the pinned Node 24, and the README names them', async (t) => {
  const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; engines?: { node?: string } | string[] }> }
  const pinned = lock.packages['node_modules/node']?.version ?? ''
  t.match(pinned, /^24\./, 'the project pins Node 24')
  const system = '20.20.2'
  const warning: string[] = []
  for (const [key, p] of Object.entries(lock.packages)) {
    const range = p.engines !== undefined && !Array.isArray(p.engines) ? p.engines.node : undefined
    if (range === undefined || key === '') continue
    t.ok(satisfies(pinned, range), `${key} accepts Node ${pinned} (${range})`)
    if (!satisfies(system, range)) warning.push(`${key.replace(/.*node_modules\//, '')}@${p.version ?? '?'}`)
  }
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8')
  for (const w of warning) t.ok(readme.includes(`\`${w}\``), `README names ${w}`)
  t.ok(readme.includes('EBADENGINE'), 'README explains the warning')
})
