// ProcessOptions.next: a download's next block has its signatures checked on the pool while
// the block before it connects; the verdicts are the same as if it had been checked itself.
import t from 'tap'
import type { Test } from 'tap'
import path from 'node:path'
import { mineBlock, transfer, devWallet, generateWallet, testParams, tmpDir, silentLogger } from '../../helpers/chain.ts'
import { signTransaction } from '../../../core/chain/tx.ts'
import { BlockError, BlockErrorCode } from '../../../core/chain/errors.ts'
import { Chain } from '../../../plugins/consensus/chain.ts'
import { RocksStore } from '../../../plugins/storage/rocks-store.ts'
import { createHooks } from '../../../core/kernel/hooks.ts'
import { Cores } from '../../../core/cores/cores.ts'
import { SignatureVerifyPool } from '../../../core/crypto/verify-pool.ts'
import type { SignatureCheck, SignatureVerifier } from '../../../core/crypto/verify-pool.ts'
import { refOf } from './reorg-helpers.ts'

const params = testParams()
const dev = devWallet()
const senders = Array.from({ length: 5 }, () => generateWallet())
const to = generateWallet()

/** a chain on the node's verify pool that records each batch of checks sent to it (by sender) */
async function spiedChain (t: Test): Promise<{ chain: Chain; sent: string[][] }> {
  const db = await RocksStore.open(path.join(tmpDir(), 'chain'))
  const pool = new SignatureVerifyPool({ core: 'native', threads: 2 })
  const sent: string[][] = []
  const bySender = new Map(senders.map((w) => [Buffer.from(w.publicKey).toString('hex'), w.address]))
  const verifier: SignatureVerifier = {
    verifyAll: async (checks: SignatureCheck[]) => {
      sent.push(checks.map((c) => bySender.get(Buffer.from(c.publicKey).toString('hex')) ?? '?'))
      return await pool.verifyAll(checks)
    },
    verifyBeacons: async (inputs) => await pool.verifyBeacons(inputs),
    digestAll: async (inputs) => await pool.digestAll(inputs),
    assist: () => pool.assist()
  }
  const chain = new Chain({ db, params, hooks: createHooks(), logger: silentLogger, executor: null, cores: new Cores({ pow: 'js' }), signatureVerifier: verifier })
  await chain.init()
  t.teardown(async () => { await pool.close(); await db.close() })
  return { chain, sent }
}

t.test('the next block\'s checks are sent before it is processed, and it connects on those verdicts', async (t) => {
  const { chain, sent } = await spiedChain(t)
  const fund = mineBlock(params, refOf(chain.tip()), { txs: senders.map((w, i) => transfer(params, dev, w.address, 10, i)) })
  t.equal((await chain.processBlock(fund, 'test')).status, 'connected')
  sent.length = 0
  // b1 reveals each sender's key; b2 relies on them; b3 too
  const b1 = mineBlock(params, refOf(fund), { txs: senders.map((w) => transfer(params, w, to.address, 1, 0)) })
  const b2 = mineBlock(params, refOf(b1), { txs: senders.map((w) => transfer(params, w, to.address, 1, 1, { withKey: false })) })
  const b3 = mineBlock(params, refOf(b2), { txs: senders.map((w) => transfer(params, w, to.address, 1, 2, { withKey: false })) })

  t.equal((await chain.processBlock(b1, 'peer', { next: { block: b2 } })).status, 'connected')
  // b2's checks started while b1 was not yet written: its senders' keys were unknown then, so
  // none was sent (b2 is verified inline instead)
  t.same(sent, [senders.map((w) => w.address)], 'only b1\'s checks were sent')
  t.equal((await chain.processBlock(b2, 'peer', { next: { block: b3 } })).status, 'connected', 'b2 connects, verified inline')
  t.equal(sent.length, 2, 'b3\'s checks were sent before b3 was processed')
  t.same(sent[1], senders.map((w) => w.address), 'against the keys b1 stored')
  t.equal((await chain.processBlock(b3, 'peer')).status, 'connected')
  t.equal(sent.length, 2, 'b3 used the verdicts checked ahead, sending nothing again')
  for (const w of senders) t.equal(chain.getAccount(w.address).nonce, 3)
})

t.test('a forged signature in a block checked ahead is refused with the error inline verification gives', async (t) => {
  const { chain } = await spiedChain(t)
  const fund = mineBlock(params, refOf(chain.tip()), { txs: senders.map((w, i) => transfer(params, dev, w.address, 10, i)) })
  const b1 = mineBlock(params, refOf(fund), { txs: senders.map((w) => transfer(params, w, to.address, 1, 0)) })
  t.equal((await chain.processBlock(fund, 'test')).status, 'connected')
  t.equal((await chain.processBlock(b1, 'test')).status, 'connected')
  const forged = signTransaction(params.chainId, { sender: senders[1]!.address, recipient: to.address, amount: 1, fee: 0.001, timestamp: Date.now() / 1000, nonce: 1, data: {} }, senders[2]!.seed)
  const good = senders.map((w) => transfer(params, w, to.address, 1, 1, { withKey: false }))
  const b2 = mineBlock(params, refOf(b1), { txs: good })
  const bad = mineBlock(params, refOf(b2), { txs: [forged, ...good.slice(2).map((_, i) => transfer(params, senders[i + 2]!, to.address, 1, 2, { withKey: false }))] })
  t.equal((await chain.processBlock(b2, 'peer', { next: { block: bad } })).status, 'connected')
  try {
    await chain.processBlock(bad, 'peer')
    t.fail('a forged signature must be refused')
  } catch (err) {
    t.ok(err instanceof BlockError)
    t.equal((err as BlockError).code, BlockErrorCode.BAD_TX)
    t.match((err as Error).message, /transaction 1: ML-DSA-87 signature does not verify/)
  }
  t.equal(chain.tip().hash, b2.hash, 'the tip stays at the block before')
})

t.test('verdicts belong to the block object they were started for: a copy is checked on its own', async (t) => {
  const { chain, sent } = await spiedChain(t)
  const fund = mineBlock(params, refOf(chain.tip()), { txs: senders.map((w, i) => transfer(params, dev, w.address, 10, i)) })
  const b1 = mineBlock(params, refOf(fund), { txs: senders.map((w) => transfer(params, w, to.address, 1, 0)) })
  const b2 = mineBlock(params, refOf(b1), { txs: senders.map((w) => transfer(params, w, to.address, 1, 1, { withKey: false })) })
  const b3 = mineBlock(params, refOf(b2), { txs: senders.map((w) => transfer(params, w, to.address, 1, 2, { withKey: false })) })
  for (const b of [fund, b1]) t.equal((await chain.processBlock(b, 'test')).status, 'connected')
  sent.length = 0
  t.equal((await chain.processBlock(b2, 'peer', { next: { block: b3 } })).status, 'connected')
  t.equal(sent.length, 2, 'b2\'s checks, then b3\'s ahead')
  t.equal((await chain.processBlock(structuredClone(b3), 'peer')).status, 'connected')
  t.equal(sent.length, 3, 'a copy of b3 sends its own checks')
})
