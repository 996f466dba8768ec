// The two examples of issue 29 pass their typecheck and their own tests from their own package
// folders: examples/tx-policy-plugin (a txAdmission policy) and examples/chain-indexer-plugin
// (ctx.follow into SQLite), the indexer's test starting a devnet node in its folder with both
// loaded by package name (a refused memo, balances as the node reports them, a SIGKILL and a
// restart with no block indexed twice).
import t from 'tap'
import { cleanup, tmpDir } from '../helpers/chain.ts'
import { installExample, npm, tapPassed } from './fixtures/example-package.ts'

t.setTimeout(420_000)

t.test('both examples typecheck and pass their tests from their folders', async (t) => {
  const dir = tmpDir('ledger-examples-')
  t.teardown(() => cleanup(dir))
  const policy = installExample('tx-policy-plugin', dir)
  const indexer = installExample('chain-indexer-plugin', dir)
  for (const [name, folder] of [['tx-policy-plugin', policy], ['chain-indexer-plugin', indexer]] as const) {
    const typecheck = await npm(['run', 'typecheck'], folder, 150_000)
    t.equal(typecheck.code, 0, `${name}: npm run typecheck passes`, typecheck.code === 0 ? {} : { output: typecheck.output })
    const test = await npm(['test'], folder, 200_000)
    t.equal(test.code, 0, `${name}: npm test passes`, test.code === 0 ? {} : { output: test.output })
    t.ok(tapPassed(test.output), `${name}: its own tests passed`)
  }
})
