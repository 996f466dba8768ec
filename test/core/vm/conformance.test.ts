// Both interpreter cores against every case of test/vectors/vm-conformance.json.
import t from 'tap'
import { readFileSync } from 'node:fs'
import { runCase } from './conformance/run.ts'
import type { VectorFile } from './conformance/run.ts'

const file = JSON.parse(readFileSync(new URL('../../vectors/vm-conformance.json', import.meta.url), 'utf8')) as VectorFile

t.ok(file.cases.length >= 60, `${file.cases.length} cases`)

for (const core of ['wasm', 'js'] as const) {
  t.test(`${core} core`, async (t) => {
    for (const c of file.cases) t.strictSame(runCase(c, file.env, core), c.expect, c.name)
  })
}
