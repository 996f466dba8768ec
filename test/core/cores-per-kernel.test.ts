// Two kernels in one process with different cores each hash, verify and run contracts with
// their own: every core object's calls are counted while one kernel works, and only that
// kernel's cores may move.
import t from 'tap'
import { CORE_FAMILIES, coreFamilies, Cores } from '../../core/cores/cores.ts'
import type { CoreSelection } from '../../core/cores/cores.ts'
import type { ChainService } from '../../core/chain/chain-service.ts'
import type { MempoolService } from '../../core/chain/mempool-service.ts'
import { PowWorkerPool } from '../../core/pow/worker-pool.ts'
import { SignatureVerifyPool } from '../../core/crypto/verify-pool.ts'
import { startTestNode } from '../helpers/node.ts'
import type { TestNode } from '../helpers/node.ts'
import { devWallet, generateWallet, mineBlock, testParams, transfer } from '../helpers/chain.ts'
import { difficultyTargetBytes } from '../../core/chain/target.ts'

// family/name -> calls, over every method of every registered core
const calls = new Map<string, number>()
const restore: Array<() => void> = []
for (const family of coreFamilies()) {
  for (const [name, core] of Object.entries(CORE_FAMILIES[family])) {
    const target = core as unknown as Record<string, unknown>
    // own methods (object cores) and prototype methods (class cores), each shadowed by a counter
    const methods = new Set([...Object.keys(target), ...Object.getOwnPropertyNames(Object.getPrototypeOf(target) as object)])
    for (const method of methods) {
      const original = target[method]
      if (method === 'constructor' || typeof original !== 'function') continue
      const own = Object.hasOwn(target, method)
      target[method] = function (this: unknown, ...args: unknown[]) {
        calls.set(`${family}/${name}`, (calls.get(`${family}/${name}`) ?? 0) + 1)
        return (original as (...a: unknown[]) => unknown).apply(this, args)
      }
      restore.push(() => { if (own) target[method] = original; else delete target[method] })
    }
  }
}
t.teardown(() => { for (const undo of restore) undo() })

const count = (key: string): number => calls.get(key) ?? 0
/** the cores of `family` that were called since the last reset, by name */
const used = (family: string): string[] => [...calls.entries()].filter(([k, n]) => k.startsWith(`${family}/`) && n > 0).map(([k]) => k.slice(family.length + 1)).sort()

const ALL_JS: CoreSelection = { sha3: 'js', pow: 'js', vm: 'js', mldsa: 'noble', bls: 'noble' }
const DEFAULTS: CoreSelection = { sha3: 'wasm', pow: 'wasm-scalar', vm: 'wasm', mldsa: 'native', bls: 'mcl' }
const params = testParams()

async function boot (cores: CoreSelection): Promise<TestNode> {
  const node = await startTestNode({ plugins: ['storage', 'consensus'], params, start: false, config: { cores } })
  t.teardown(() => node.stop())
  return node
}

t.test('two kernels in one process each use their own cores', async (t) => {
  // built before any kernel: the block and the transaction come from the test's own tools
  const genesis = { hash: '', height: 0, timestamp: 0 }
  const dev = devWallet()

  calls.clear()
  const a = await boot(ALL_JS)
  t.same(a.kernel.cores.selection, ALL_JS, 'kernel A reports its cores')
  t.equal(a.resolve('cores'), a.kernel.cores, 'and serves them as the cores service')
  t.same(used('sha3'), ['js'], 'A wrote its genesis with its SHA3 core only')
  t.same(used('pow'), ['js'], 'and its PoW core only')
  t.same(used('vm'), ['js'], 'A probed its VM core only')

  calls.clear()
  const b = await boot(DEFAULTS)
  t.same(b.kernel.cores.selection, DEFAULTS, 'kernel B reports its own cores')
  t.not(a.kernel.cores, b.kernel.cores)
  t.same(used('sha3'), ['wasm'], 'B wrote its genesis with its SHA3 core only')
  t.same(used('pow'), ['wasm-scalar'], 'and its PoW core only')
  t.same(used('vm'), ['wasm'], 'B probed its VM core only')

  const chainA = a.resolve('chain') as ChainService
  const chainB = b.resolve('chain') as ChainService
  const tip = chainA.tip()
  t.equal(tip.hash, chainB.tip().hash, 'both derived the same genesis')
  Object.assign(genesis, { hash: tip.hash, height: tip.height, timestamp: tip.timestamp })
  const block = mineBlock(params, genesis, { txs: [transfer(params, dev, generateWallet().address, 1, 0)] })
  const next = transfer(params, dev, generateWallet().address, 1, 1)

  for (const [node, chain, cores, name] of [[a, chainA, ALL_JS, 'A'], [b, chainB, DEFAULTS, 'B']] as const) {
    calls.clear()
    await chain.processBlock(block, 'test')
    t.equal(chain.tip().hash, block.hash, `${name} accepted the block`)
    t.same(used('sha3'), [cores.sha3], `${name} validated it with its SHA3 core only`)
    t.same(used('pow'), [cores.pow], `${name} checked its proof-of-work with its PoW core only`)
    t.ok(count(`mldsa/${cores.mldsa}`) > 0 || used('mldsa').length === 0, `${name}: any inline signature check is its own core's`)
    t.same(used('mldsa').filter((m) => m !== cores.mldsa), [], `${name} verified no signature with another ML-DSA core`)

    calls.clear()
    ;(node.resolve('mempool') as MempoolService).add(next)
    t.same(used('mldsa'), [cores.mldsa], `${name}'s mempool verified the signature with its ML-DSA core`)
    t.same(used('sha3'), [cores.sha3], `${name}'s mempool recomputed the id and address with its SHA3 core`)
  }
})

t.test('a bad selection names the valid cores', async (t) => {
  t.throws(() => new Cores({ sha3: 'gpu' as 'js' }), /unknown sha3 core "gpu" \(valid: wasm, js\)/)
})

t.test('worker pools take the kernel core by name and their threads look it up', async (t) => {
  const prefix = Buffer.alloc(264, 7)
  const expected = CORE_FAMILIES.pow.js.search(prefix, 0, 1 << 20, difficultyTargetBytes(3))
  for (const name of Object.keys(CORE_FAMILIES.pow) as Array<keyof typeof CORE_FAMILIES.pow>) {
    const pool = new PowWorkerPool({ threads: 1, core: name })
    t.teardown(() => pool.close())
    t.equal(pool.core, name)
    const found = await pool.search({ prefix, target: difficultyTargetBytes(3) })
    t.equal(found?.nonce, expected.nonce, `a pow=${name} worker finds the nonce every core finds`)
    await pool.close()
  }
  t.throws(() => new PowWorkerPool({ threads: 1, core: 'cuda' as 'js' }), /core must be one of wasm, wasm-simd, wasm-scalar, js, got cuda/)
  t.throws(() => new SignatureVerifyPool({ core: 'openssl3' as 'native' }), /core must be one of native, noble, wasm, got openssl3/)
})
