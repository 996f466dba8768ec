// Issue 12 items 8 and 11 on the playground: hostile sources answer 400 with phase compile
// (never 500), and compiles are limited per address.
import t from 'tap'
import { startPlaygroundNode } from './fixtures/playground-node.ts'
import { getExample } from '../../../core/contracts/index.ts'

t.test('hostile sources are compile errors', async (t) => {
  const node = await startPlaygroundNode({ config: { playground: { rateLimits: { compile: { max: 100, windowSeconds: 60 } } } } })
  t.teardown(() => node.stop())
  const alice = await node.join('alice')
  const wrap = (expr: string): string => `contract C { pub fn f() -> uint { return ${expr}; } }`
  const sources: Record<string, string> = {
    '200,000 nested parentheses': wrap('('.repeat(200_000) + '1' + ')'.repeat(200_000)),
    '20,000 nested parentheses': wrap('('.repeat(20_000) + '1' + ')'.repeat(20_000)),
    'a 15,000-term sum': wrap(Array(15_000).fill('1').join('+')),
    'code past the jump range': `contract C { pub fn f() -> uint { let x: uint = 0; ${'x = x + 1; '.repeat(5500)} return x; } }`
  }
  for (const [what, source] of Object.entries(sources)) {
    for (const url of ['/api/playground/compile', '/api/playground/deploy']) {
      const res = await node.pg('POST', url, alice, { source })
      t.equal(res.statusCode, 400, `${url}: ${what}`)
      t.equal(res.json().phase, 'compile')
      t.type(res.json().error, 'string')
      t.type(res.json().line, 'number')
    }
  }
  t.equal(node.resolve('mempool').size, 0, 'nothing was submitted')
})

t.test('compile and deploy share one per-address budget', async (t) => {
  const node = await startPlaygroundNode({ config: { playground: { rateLimits: { compile: { max: 3, windowSeconds: 60 } } } } })
  t.teardown(() => node.stop())
  const alice = await node.join('alice')
  const source = getExample('counter')?.source ?? ''
  t.equal((await node.pg('POST', '/api/playground/compile', alice, { source })).statusCode, 200)
  t.equal((await node.pg('POST', '/api/playground/compile', alice, { source })).statusCode, 200)
  t.not((await node.pg('POST', '/api/playground/deploy', alice, { source })).statusCode, 429, 'the third compile is a deploy')
  const refused = await node.pg('POST', '/api/playground/compile', alice, { source })
  t.equal(refused.statusCode, 429)
  t.match(refused.json(), { error: /^too many compiles from this address: retry in \d+ seconds$/ })
  t.ok(Number(refused.headers['retry-after']) >= 1)
  t.equal((await node.pg('POST', '/api/playground/deploy', alice, { source })).statusCode, 429)
  t.equal((await node.pg('GET', '/api/playground/examples', alice)).statusCode, 200, 'other playground reads are not limited')
})
