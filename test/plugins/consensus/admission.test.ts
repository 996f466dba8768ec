// The txAdmission hook (issue 29): a policy plugin refuses a transaction every rule admits,
// with its code and reason; the submitter reads them (HTTP 400 {"status":"rejected","reason",
// "code"}) and the mempool never holds it. The plugin is the example package
// examples/tx-policy-plugin, loaded by path from a copy that links ledger-node as an install would.
// Hooks have owners: a plugin firing a hook it does not own fails at run time.
import t from 'tap'
import path from 'node:path'
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { generateWallet } from '../../helpers/chain.ts'
import { cleanup, tmpDir } from '../../helpers/chain.ts'
import { startDashboardNode } from '../dashboard/fixtures/dashboard-node.ts'
import { startTestNode } from '../../helpers/node.ts'

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..')

function policyCopy (dir: string): string {
  const copy = path.join(dir, 'tx-policy-plugin')
  cpSync(path.join(ROOT, 'examples', 'tx-policy-plugin'), copy, { recursive: true, filter: (src) => !src.includes('node_modules') })
  mkdirSync(path.join(copy, 'node_modules'), { recursive: true })
  symlinkSync(ROOT, path.join(copy, 'node_modules', 'ledger-node'), 'dir')
  return copy
}

t.test('a policy plugin refuses by memo; the submitter reads code and reason', async (t) => {
  const dir = tmpDir('ledger-policy-')
  t.teardown(() => cleanup(dir))
  const carol = generateWallet()
  const node = await startDashboardNode({ extraPlugins: [{ path: policyCopy(dir) }], config: { 'tx-policy': { memoPattern: 'casino', blockedSenders: [carol.address] } } })
  t.teardown(() => node.stop())
  const mempool = node.resolve('mempool')

  const spam = node.send(node.dev, carol.address, 1, { memo: 'best casino' })
  const res = await node.call('POST', '/api/tx/submit', { body: spam })
  t.equal(res.statusCode, 400)
  t.match(res.json(), { status: 'rejected', reason: 'memo refused by this node\'s policy', code: 'POLICY_MEMO' })
  t.notOk(mempool.has(spam.transaction_id), 'not admitted')

  const fine = node.send(node.dev, carol.address, 1, { memo: 'rent' })
  t.equal((await node.call('POST', '/api/tx/submit', { body: fine })).statusCode, 200, 'what the policy allows passes')
  t.ok(mempool.has(fine.transaction_id))
})

t.test('only a hook\'s owner fires it; a plugin\'s own hook is fired by it and tapped by others', async (t) => {
  const dir = tmpDir('ledger-owners-')
  t.teardown(() => cleanup(dir))
  const file = (name: string, body: string): string => { const f = path.join(dir, `${name}.js`); writeFileSync(f, body); return f }
  const forger = file('forger', "export default { name: 'forger', description: '', apiVersion: '1.0', provides: [], needs: [], register (ctx) { ctx.ownedHooks.tipChanged.call({ height: 9, hash: 'x' }) } }\n")
  await t.rejects(startTestNode({ plugins: ['storage', 'consensus', { path: forger }] }), { message: "plugin 'forger' cannot fire hook 'tipChanged': only the provider of 'chain' fires it (plugins tap it)" })

  const seen: number[] = []
  ;(globalThis as { __seen?: number[] }).__seen = seen
  const owner = file('owner', "import { SyncHook } from 'tapable'\nexport default { name: 'owner', description: '', apiVersion: '1.0', provides: [], needs: [], hooks: { counted: () => new SyncHook(['n']) }, register (ctx) { ctx.onStart(() => ctx.ownedHooks.counted.call(7)) } }\n")
  const listener = file('listener', "export default { name: 'listener', description: '', apiVersion: '1.0', provides: [], needs: [], register (ctx) { ctx.hooks.counted.tap('listener', (n) => globalThis.__seen.push(n)); try { ctx.ownedHooks.counted.call(1) } catch (err) { globalThis.__seen.push(err.message) } } }\n")
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir')
  const node = await startTestNode({ plugins: ['storage', { path: listener }, { path: owner }] })
  t.teardown(() => node.stop())
  t.same(seen, ["plugin 'listener' cannot fire hook 'counted': only plugin 'owner' fires it (plugins tap it)", 7], 'the listener may not fire it; the owner did, and the listener heard')
})
