// An out-of-tree plugin typechecks against ledger-node's exports alone (issue 29): tsc on a
// fixture package that names every type docs/plugins.md lists, declares a hook of its own by
// declaration merging, and marks what must not compile (firing a hook through the tap-only
// catalogue, a declared hook's wrong payload) with @ts-expect-error, so an export that goes
// missing, or a check that stops holding, fails the test.
import t from 'tap'
import path from 'node:path'
import { execFile } from 'node:child_process'
import { cpSync, mkdirSync, symlinkSync } from 'node:fs'
import { cleanup, tmpDir } from '../helpers/chain.ts'

const ROOT = path.resolve(import.meta.dirname, '..', '..')
const FIXTURE = path.join(ROOT, 'test', 'project', 'fixtures', 'typed-plugin')

t.setTimeout(180_000)

t.test('the fixture package passes tsc with only ledger-node (and its own devDependencies) installed', async (t) => {
  const dir = tmpDir('ledger-typed-')
  t.teardown(() => cleanup(dir))
  const copy = path.join(dir, 'typed-plugin')
  cpSync(FIXTURE, copy, { recursive: true })
  for (const [name, target] of [['ledger-node', ROOT], ['@types/node', path.join(ROOT, 'node_modules', '@types', 'node')], ['tapable', path.join(ROOT, 'node_modules', 'tapable')]] as const) {
    const link = path.join(copy, 'node_modules', name)
    mkdirSync(path.dirname(link), { recursive: true })
    symlinkSync(target, link, 'dir')
  }
  const out = await new Promise<{ code: number; output: string }>((resolve) => {
    execFile(path.join(ROOT, 'node_modules', '.bin', 'tsc'), ['--noEmit', '-p', copy], { timeout: 170_000 }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1, output: stdout + stderr })
    })
  })
  t.equal(out.code, 0, 'tsc passes', out.code === 0 ? {} : { output: out.output })
})
