// The load generator's funded senders: each extra wallet is funded once by a funded wallet,
// again after a refusal, and sends once a node shows its balance.
import t from 'tap'
import { LoadGenerator } from '../../testbed/runner/load.ts'
import type { TestbedNode } from '../../testbed/node/node-process.ts'
import type { Transaction } from '../../core/chain/types.ts'
import { generateWallet } from '../helpers/chain.ts'
import { seededRandom } from '../helpers/random.ts'

t.test('extra senders are funded, retried after a refusal, and join once their balance shows', async (t) => {
  const funder = generateWallet()
  const extra = [generateWallet(), generateWallet()]
  const balances = new Map<string, bigint>()
  const posted: Transaction[] = []
  let refuse = true
  const node = {
    index: 0,
    running: true,
    get: async (url: string) => url.startsWith('/account/') ? { nonce: 0, balance: String(balances.get(url.slice('/account/'.length)) ?? 0n) } : null,
    post: async (_url: string, tx: Transaction) => {
      posted.push(tx)
      if (refuse) return { status: 400, json: { error: 'insufficient balance' } }
      return { status: 200, json: { id: tx.transaction_id } }
    }
  } as unknown as TestbedNode
  const load = new LoadGenerator('ledger-testnet-1', [node], [funder], seededRandom(3), (i) => extra[i] as (typeof extra)[number])
  load.fund(2, 0.5)
  await load.checkFunding()
  t.equal(posted.length, 2, 'one funding transaction per wallet')
  t.same(posted.map((tx) => [tx.sender, tx.recipient, tx.amount]), extra.map((w) => [funder.address, w.address, 0.5]))
  await load.checkFunding()
  t.equal(posted.length, 2, 'a refused funding waits before it is sent again')
  t.equal(load.stats.refused['insufficient balance'], 2)

  const fresh = new LoadGenerator('ledger-testnet-1', [node], [funder], seededRandom(3), (i) => extra[i] as (typeof extra)[number])
  refuse = false
  posted.length = 0
  fresh.fund(2, 0.5)
  await fresh.checkFunding()
  t.same(posted.map((tx) => tx.nonce), [0, 1], 'the funder\'s nonces follow each other')
  await fresh.checkFunding()
  t.equal(posted.length, 2, 'an accepted funding is not sent again while it confirms')
  balances.set((extra[0] as (typeof extra)[number]).address, 50_000_000n)
  await fresh.checkFunding()
  t.same(fresh.senders.map((w) => w.address), [funder.address, extra[0]?.address], 'the funded one sends; the other waits')
  fresh.fund(2, 0.5)
  await fresh.checkFunding()
  t.equal(posted.length, 2, 'a funded wallet is not funded again')
  t.equal(fresh.stats.accepted, 2)
})
