// Renders the hand-written conformance cases into test/vectors/vm-conformance.json.
// Run: node test/core/vm/conformance/write.ts
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { CONFORMANCE_CASES, ENV } from './cases.ts'

const path = fileURLToPath(new URL('../../../vectors/vm-conformance.json', import.meta.url))
const file = {
  description: 'VM conformance vectors: every case runs as one transaction on a fresh state built from `pre`; both interpreter cores must produce exactly `expect` (receipt fields, and the listed storage, balances, nonces and code afterwards). Written from test/core/vm/conformance/cases.ts.',
  env: ENV,
  cases: CONFORMANCE_CASES
}
writeFileSync(path, JSON.stringify(file, null, 1) + '\n')
console.log(`wrote ${CONFORMANCE_CASES.length} cases to ${path}`)
