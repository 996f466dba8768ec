// Every method of each bundled example (counter, guestbook, multisig), end to end through the
// playground: deploy and calls are signed transactions from users' wallets, mined into real
// blocks, and their playground receipts carry the expected results, reverts and logs.
import t from 'tap'
import type { Test } from 'tap'
import { startPlaygroundNode } from './fixtures/playground-node.ts'
import type { PlaygroundNode, User } from './fixtures/playground-node.ts'
import { getExample } from '../../../core/contracts/index.ts'

const source = (id: string): string => getExample(id)?.source ?? ''
const word = (v: bigint | number | string): string => BigInt(v).toString(16).padStart(64, '0')
const text32 = (s: string): string => Buffer.concat([Buffer.from(s), Buffer.alloc(32 - Buffer.byteLength(s))]).toString('hex')
const COIN = 10n ** 18n

async function setup (t: Test): Promise<{ node: PlaygroundNode; alice: User; bob: User; carol: User }> {
  const node = await startPlaygroundNode()
  t.teardown(() => node.stop())
  await node.fundFaucet()
  const alice = await node.join('alice')
  const bob = await node.join('bob')
  const carol = await node.join('carol')
  await node.mine()
  return { node, alice, bob, carol }
}

t.test('counter: increment, get, reset, with its events and reasons', async (t) => {
  const { node, alice, bob } = await setup(t)
  const c = await node.deploy(alice, source('counter'))
  const topic = (name: string): string => c.abi.events.find((e) => e.name === name)?.topic ?? ''

  const inc5 = await node.call(alice, c, 'increment', [5])
  t.match(inc5, { success: true, return_uint: 5, return_hex: word(5) })
  t.same(inc5.logs, [{ address: c.address.slice(2), topics: [topic('Incremented'), word(5)], data: word(5) }])
  t.match(await node.call(bob, c, 'increment', ['3']), { success: true, return_uint: 8 }, 'anyone can increment')
  t.match(await node.call(bob, c, 'get'), { success: true, return_uint: 8 })
  t.match(await node.call(alice, c, 'increment', [0]), { success: false, revert_reason: 'increment must be positive' })
  t.match(await node.call(bob, c, 'reset'), { success: false, revert_reason: 'only the owner can reset' })
  const reset = await node.call(alice, c, 'reset')
  t.match(reset, { success: true, return_hex: '' })
  t.same(reset.logs, [{ address: c.address.slice(2), topics: [topic('Reset'), word(BigInt(`0x${alice.vm_address}`))], data: word(8) }])
  t.match(await node.call(alice, c, 'get'), { return_uint: 0 })
})

t.test('guestbook: sign, count, message, author, height, entries_by', async (t) => {
  const { node, alice, bob } = await setup(t)
  const g = await node.deploy(alice, source('guestbook'))
  const signedA = await node.call(alice, g, 'sign', ['hello, chain'])
  t.match(signedA, { success: true, return_uint: 0 })
  const heightA = signedA.block_height as number
  t.same((signedA.logs as Array<{ topics: string[]; data: string }>)[0]?.topics.slice(1), [word(BigInt(`0x${alice.vm_address}`)), word(0)], 'Signed(author indexed, index indexed)')
  t.equal((signedA.logs as Array<{ data: string }>)[0]?.data, text32('hello, chain'))
  t.match(await node.call(bob, g, 'sign', ['0x' + 'ab'.repeat(32)]), { success: true, return_uint: 1 })
  t.match(await node.call(bob, g, 'sign', ['']), { success: false, revert_reason: 'the message is empty' })
  t.match(await node.call(bob, g, 'count'), { return_uint: 2 })
  t.match(await node.call(bob, g, 'message', [0]), { success: true, return_hex: text32('hello, chain') })
  t.match(await node.call(bob, g, 'message', [1]), { return_hex: 'ab'.repeat(32) })
  t.match(await node.call(bob, g, 'message', [2]), { success: false, revert_reason: 'no such entry' })
  t.match(await node.call(bob, g, 'author', [1]), { return_hex: word(BigInt(`0x${bob.vm_address}`)) })
  t.match(await node.call(bob, g, 'author', [9]), { success: false, revert_reason: 'no such entry' })
  t.match(await node.call(bob, g, 'height', [0]), { return_uint: heightA }, 'the block the entry was signed in')
  t.match(await node.call(bob, g, 'height', [5]), { success: false, revert_reason: 'no such entry' })
  t.match(await node.call(bob, g, 'entries_by', [alice.vm_address]), { return_uint: 1 })
  t.match(await node.call(bob, g, 'entries_by', [`0x${bob.vm_address}`]), { return_uint: 1 })
  t.match(await node.call(bob, g, 'entries_by', ['00'.repeat(20)]), { return_uint: 0 })
})

t.test('multisig: setup, seal, deposit, propose, approve, execute pays out, and every view', async (t) => {
  const { node, alice, bob, carol } = await setup(t)
  const chain = node.resolve('chain')
  const m = await node.deploy(alice, source('multisig'))
  const yes = { return_uint: 1 }
  const no = { return_uint: 0 }
  const vm = (u: User): string => u.vm_address

  t.match(await node.call(alice, m, 'is_owner', [vm(alice)]), yes, 'init(): the deployer owns it')
  t.match(await node.call(alice, m, 'owners_total'), { return_uint: 1 })
  t.match(await node.call(alice, m, 'required'), { return_uint: 1 })
  t.match(await node.call(bob, m, 'add_owner', [vm(bob)]), { success: false, revert_reason: 'only the creator configures the wallet' })
  t.match(await node.call(alice, m, 'add_owner', [vm(bob)]), { success: true })
  t.match(await node.call(alice, m, 'add_owner', [vm(bob)]), { success: false, revert_reason: 'already an owner' })
  t.match(await node.call(alice, m, 'set_threshold', [3]), { success: false, revert_reason: 'threshold must be between 1 and the number of owners' })
  t.match(await node.call(alice, m, 'set_threshold', [2]), { success: true })
  t.match(await node.call(alice, m, 'propose', [vm(carol), 1]), { success: false, revert_reason: 'seal the owner set first' })
  t.match(await node.call(alice, m, 'is_sealed'), no)
  t.match(await node.call(alice, m, 'seal'), { success: true })
  t.match(await node.call(alice, m, 'is_sealed'), yes)
  t.match(await node.call(alice, m, 'add_owner', [vm(carol)]), { success: false, revert_reason: 'the owner set is sealed' })

  const deposit = await node.call(carol, m, 'deposit', [], { value: 5 })
  t.match(deposit, { success: true, return_uint: (5n * COIN).toString() }, 'balance(self()) after a 5 coin deposit, beyond 2^53 as a decimal string')
  t.equal(chain.getAccount(m.address.slice(2)).balance, 5n * COIN, 'the contract holds the value')

  t.match(await node.call(carol, m, 'propose', [vm(carol), (2n * COIN).toString()]), { success: false, revert_reason: 'not an owner' })
  t.match(await node.call(alice, m, 'propose', [vm(carol), (2n * COIN).toString()]), { success: true, return_uint: 0 })
  t.match(await node.call(alice, m, 'proposals'), { return_uint: 1 })
  t.match(await node.call(alice, m, 'approvals', [0]), { return_uint: 1 }, 'the proposer approved it')
  t.match(await node.call(alice, m, 'approve', [0]), { success: false, revert_reason: 'already approved' })
  t.match(await node.call(alice, m, 'execute', [0]), { success: false, revert_reason: 'not enough approvals' })
  t.match(await node.call(bob, m, 'approve', [1]), { success: false, revert_reason: 'no such proposal' })
  t.match(await node.call(bob, m, 'approve', [0]), { success: true, return_uint: 2 })
  t.match(await node.call(bob, m, 'has_approved', [0, vm(bob)]), yes)
  t.match(await node.call(bob, m, 'has_approved', [0, vm(carol)]), no)
  t.match(await node.call(bob, m, 'executed', [0]), no)

  const before = chain.getAccount(carol.address).balance
  const executed = await node.call(bob, m, 'execute', [0])
  t.match(executed, { success: true })
  t.equal((executed.logs as unknown[]).length, 1, 'Executed emitted')
  t.equal(chain.getAccount(carol.address).balance, before + 2n * COIN, 'the payment reached carol\'s wallet')
  t.equal(chain.getAccount(m.address.slice(2)).balance, 3n * COIN)
  t.match(await node.call(bob, m, 'executed', [0]), yes)
  t.match(await node.call(bob, m, 'execute', [0]), { success: false, revert_reason: 'already executed' })
  t.match(await node.call(alice, m, 'payee', [0]), { return_hex: word(BigInt(`0x${vm(carol)}`)) })
  t.match(await node.call(alice, m, 'amount_of', [0]), { return_uint: (2n * COIN).toString() })
  t.match(await node.call(alice, m, 'owners_total'), { return_uint: 2 })
  t.match(await node.call(alice, m, 'required'), { return_uint: 2 })

  t.match(await node.call(alice, m, 'propose', [vm(alice), (9n * COIN).toString()]), { return_uint: 1 })
  await node.call(bob, m, 'approve', [1])
  t.match(await node.call(bob, m, 'execute', [1]), { success: false, revert_reason: 'the wallet cannot cover the payment' })
  t.equal(chain.getAccount(carol.address).balance, before + 2n * COIN, 'unchanged by the failed payment')
  t.equal(chain.getAccount(m.address.slice(2)).balance, 3n * COIN, 'the contract keeps its coin')
})
