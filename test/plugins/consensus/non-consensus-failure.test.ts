// Issue 12 item 6: only a broken rule marks a block invalid. A failure of this node while it
// applies a block (a trap in the VM host, an I/O error) stores nothing, marks nothing, reaches
// the caller as a plain Error that p2p never holds against a peer, and the same block connects
// when it is offered again.
import t from 'tap'
import type { Test } from 'tap'
import path from 'node:path'
import { mineBlock, transfer, devWallet, generateWallet, cleanup, testParams, tmpDir, silentLogger } from '../../helpers/chain.ts'
import { deployTx } from '../../helpers/contracts.ts'
import { Chain, BlockNotProcessedError } from '../../../plugins/consensus/chain.ts'
import { createContractExecutor } from '../../../plugins/consensus/contracts.ts'
import type { ContractExecutor } from '../../../core/chain/apply.ts'
import { BlockError } from '../../../core/chain/errors.ts'
import { createHooks } from '../../../core/kernel/hooks.ts'
import type { KvStore } from '../../../core/kernel/kv.ts'
import { RocksStore } from '../../../plugins/storage/rocks-store.ts'
import { assemble } from '../../../core/vm/assembler.ts'
import { Cores } from '../../../core/cores/cores.ts'

const dev = devWallet()

/** a store whose next `failWrites` writes throw, as a full or failing disk would */
function flakyStore (db: RocksStore): { store: KvStore; failWrites: number } {
  const ctl = { failWrites: 0, store: undefined as unknown as KvStore }
  ctl.store = new Proxy(db, {
    get (target, prop) {
      if (prop === 'write' && ctl.failWrites > 0) {
        return async () => { ctl.failWrites--; throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' }) }
      }
      const v = Reflect.get(target, prop, target) as unknown
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v
    }
  }) as unknown as KvStore
  return ctl
}

async function setup (t: Test) {
  const dir = tmpDir()
  const db = await RocksStore.open(path.join(dir, 'chain'))
  t.teardown(async () => { await db.close(); cleanup(dir) })
  const real = await createContractExecutor('js')
  const vm = { trap: false }
  // a host trap, as a WASM core raises it: not a rule of the chain
  const executor: ContractExecutor = { execute: (call) => { if (vm.trap) throw new WebAssembly.RuntimeError('unreachable'); return real.execute(call) } }
  const flaky = flakyStore(db)
  const hooks = createHooks()
  const rejected: string[] = []
  hooks.blockRejected.tap('test', ({ hash }) => { rejected.push(hash) })
  const params = testParams()
  const chain = new Chain({ db: flaky.store, params, hooks, logger: silentLogger, executor, cores: new Cores({ pow: 'js' }) })
  await chain.init()
  const tipRef = () => { const tip = chain.tip(); return { hash: tip.hash, height: tip.height, timestamp: tip.timestamp } }
  return { chain, params, vm, flaky, rejected, tipRef }
}

t.test('a VM host trap while applying: not invalid, nothing stored, retried successfully', async (t) => {
  const { chain, params, vm, rejected, tipRef } = await setup(t)
  const code = Buffer.concat([assemble('PUSH1 1 PUSH1 12 PUSH1 0 CODECOPY PUSH1 1 PUSH1 0 RETURN'), Uint8Array.of(0)]).toString('hex')
  const block = mineBlock(params, tipRef(), { txs: [deployTx(params, dev, 0, code, { gasLimit: 100_000 })] })
  vm.trap = true
  const err = await chain.processBlock(block, 'peer').then(() => null, (e: unknown) => e)
  t.type(err, BlockNotProcessedError, 'a plain error, not a BlockError')
  t.notOk(err instanceof BlockError, 'so gossip and sync do not penalise the peer')
  t.match((err as Error).message, /block 1 could not be processed: unreachable/)
  t.equal(chain.getBlockMeta(block.hash), undefined, 'the block is not marked invalid (nor stored)')
  t.equal(chain.tip().height, 0)
  t.same(rejected, [], 'no blockRejected event')

  vm.trap = false
  t.equal((await chain.processBlock(block, 'peer')).status, 'connected', 'the same block connects on retry')
  const child = mineBlock(params, tipRef(), { txs: [transfer(params, dev, generateWallet().address, 1, 1)] })
  t.equal((await chain.processBlock(child, 'peer')).status, 'connected', 'and its descendants are not refused')
})

t.test('an I/O error while writing the block: not invalid, retried successfully', async (t) => {
  const { chain, params, flaky, rejected, tipRef } = await setup(t)
  const block = mineBlock(params, tipRef(), { txs: [transfer(params, dev, generateWallet().address, 1, 0)] })
  flaky.failWrites = 1
  const err = await chain.processBlock(block, 'peer').then(() => null, (e: unknown) => e)
  t.ok(err instanceof Error && !(err instanceof BlockError), `a plain error: ${String(err)}`)
  t.equal(chain.getBlockMeta(block.hash), undefined, 'not marked invalid')
  t.equal(chain.tip().height, 0)
  t.same(rejected, [])
  t.equal((await chain.processBlock(block, 'peer')).status, 'connected', 'connects once the disk works')
})

t.test('a rule violation still marks the block invalid for good', async (t) => {
  const { chain, params, rejected, tipRef } = await setup(t)
  const overdraw = transfer(params, generateWallet(), dev.address, 5, 0)
  const block = mineBlock(params, tipRef(), { txs: [overdraw] })
  await t.rejects(chain.processBlock(block, 'peer'), BlockError)
  t.equal(chain.getBlockMeta(block.hash)?.status, 'invalid')
  t.same(rejected, [block.hash])
  await t.rejects(chain.processBlock(block, 'peer'), { message: 'block was already found invalid' })
})
