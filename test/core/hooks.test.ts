// A listener that throws must never reach the code that fired the hook (issue 16 item 1).
import t from 'tap'
import { createHooks, isolateListeners } from '../../core/kernel/hooks.ts'
import type { ListenerFailure } from '../../core/kernel/hooks.ts'
import type { MiningTemplateContext } from '../../core/kernel/hooks.ts'
import type { Transaction } from '../../core/chain/types.ts'

function isolated (): { hooks: ReturnType<typeof createHooks>, failures: Array<Parameters<ListenerFailure>[0]> } {
  const hooks = createHooks()
  const failures: Array<Parameters<ListenerFailure>[0]> = []
  isolateListeners(hooks, (f) => failures.push(f))
  return { hooks, failures }
}

t.test('a throwing sync listener is reported with its hook and tap name; the others still run', async (t) => {
  const { hooks, failures } = isolated()
  const seen: string[] = []
  hooks.tipChanged.tap('first', () => { seen.push('first') })
  hooks.tipChanged.tap('broken-plugin', () => { throw new Error('boom') })
  hooks.tipChanged.tap('last', () => { seen.push('last') })
  t.doesNotThrow(() => hooks.tipChanged.call({ height: 1, hash: 'ab' }))
  t.same(seen, ['first', 'last'])
  t.equal(failures.length, 1)
  t.match(failures[0], { hook: 'tipChanged', tap: 'broken-plugin', err: { message: 'boom' } })
})

t.test('a throwing miningTemplate listener passes the transactions on unchanged', async (t) => {
  const { hooks, failures } = isolated()
  const txs = [{ transaction_id: 'a' }, { transaction_id: 'b' }] as unknown as Transaction[]
  const context: MiningTemplateContext = { height: 2, previousHash: 'aa', difficulty: 1, timestamp: 5 }
  hooks.miningTemplate.tap('reorder', (list) => [...list].reverse())
  hooks.miningTemplate.tap('broken', () => { throw new Error('nope') })
  const out = hooks.miningTemplate.call(txs, context)
  t.same(out.map((tx) => tx.transaction_id), ['b', 'a'], 'the reorder before the broken tap stands')
  t.equal(failures[0]?.tap, 'broken')
})

t.test('a rejecting promise listener and a failing callback listener are isolated too', async (t) => {
  const { hooks, failures } = isolated()
  let after = false
  hooks.started.tapPromise('rejects', async () => { throw new Error('async boom') })
  hooks.started.tapAsync('callback-error', (done) => { done(new Error('cb boom')) })
  hooks.started.tapAsync('callback-throws', () => { throw new Error('sync inside async') })
  hooks.started.tapPromise('after', async () => { after = true })
  await hooks.started.promise()
  t.ok(after, 'later listeners ran')
  t.same(failures.map((f) => f.tap), ['rejects', 'callback-error', 'callback-throws'])
})

t.test('without isolation the same listener would reach the caller (the test can fail)', async (t) => {
  const hooks = createHooks()
  hooks.tipChanged.tap('broken', () => { throw new Error('boom') })
  t.throws(() => hooks.tipChanged.call({ height: 1, hash: 'ab' }))
})

t.test('a block is committed even when a listener of its blockConnected throws', async (t) => {
  const { openTestChain, mineBlock, cleanup } = await import('../helpers/chain.ts')
  const failures: Array<Parameters<ListenerFailure>[0]> = []
  const tc = await openTestChain(undefined, undefined, { onListenerFailure: (f) => failures.push(f) })
  t.teardown(async () => { await tc.close(); cleanup(tc.dir) })
  tc.hooks.blockConnected.tap('third-party', () => { throw new Error('listener bug') })
  const block = mineBlock(tc.params, tc.tipRef())
  await tc.chain.processBlock(block, 'test')
  t.equal(tc.chain.tip().hash, block.hash, 'the block is the tip')
  t.same(failures.map((f) => [f.hook, f.tap]), [['blockConnected', 'third-party']])
})
