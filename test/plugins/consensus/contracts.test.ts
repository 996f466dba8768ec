// Contracts inside block connection: deploys and calls run through real attested blocks on
// both VM cores (the same blocks on a JS chain and a WASM chain give identical receipts and
// identical state), value and fees settle in the chain's accounts, failures keep only the fee
// and the nonce bumps, and a reorg undoes contract code, storage, VM nonces and receipts.
import t from 'tap'
import type { Test } from 'tap'
import { mineBlock, transfer, devWallet, generateWallet, openTestChain, cleanup, testParams, tmpDir } from '../../helpers/chain.ts'
import type { TestChain } from '../../helpers/chain.ts'
import { compiled, deployTx, callTx, gasFee, word } from '../../helpers/contracts.ts'
import { startChainNode, refOf, stateDump, feed } from './reorg-helpers.ts'
import type { Block, Transaction } from '../../../core/chain/types.ts'
import type { ChainService } from '../../../core/chain/chain-service.ts'
import { ChainVmState } from '../../../core/chain/vm-state.ts'
import { vmAddressOf } from '../../../core/chain/address.ts'
import { coinToBohm } from '../../../core/chain/money.ts'
import { getExample } from '../../../core/contracts/index.ts'
import { contractAddress } from '../../../core/vm/index.ts'
import { TxError, TxErrorCode } from '../../../core/chain/errors.ts'
import { createContractExecutor, probeVmCore } from '../../../plugins/consensus/contracts.ts'

const params = testParams()
const dev = devWallet()
const devVm = vmAddressOf(dev.address)
const source = (id: string): string => {
  const e = getExample(id)
  if (e === undefined) throw new Error(`no example ${id}`)
  return e.source
}
const counter = compiled(source('counter'))
const guestbook = compiled(source('guestbook'))
const multisig = compiled(source('multisig'))
const topicOf = (c: typeof counter, event: string): string => {
  const e = c.abi.events.find((x) => x.name === event)
  if (e === undefined) throw new Error(`no event ${event}`)
  return e.topic
}
const feeOf = (txs: Transaction[]): bigint => txs.reduce((s, tx) => s + coinToBohm(tx.fee), 0n)
const vmView = (chain: ChainService): ChainVmState => new ChainVmState(chain.stateView())

async function openChain (t: Test, vm: 'js' | 'wasm'): Promise<TestChain> {
  const tc = await openTestChain(params, tmpDir(), { vm })
  t.teardown(async () => { await tc.close(); cleanup(tc.dir) })
  return tc
}

t.test('the VM core proves itself before the node accepts contracts', async (t) => {
  t.doesNotThrow(() => probeVmCore('js'))
  t.doesNotThrow(() => probeVmCore('wasm'))
  await t.rejects(createContractExecutor('lua' as 'js'), /unknown VM core "lua"/)
})

t.test('deploys and calls through real blocks, the same blocks on the JS and the WASM core', async (t) => {
  const js = await openChain(t, 'js')
  const wasm = await openChain(t, 'wasm')
  const start = js.chain.getAccount(dev.address).balance
  const bob = generateWallet()
  const miner = generateWallet().address
  let nonce = 0
  const next = (): number => nonce++
  const sent: Transaction[] = []

  /** mines `txs` on the JS chain (through its mempool), feeds the block to the WASM chain, and checks both agree */
  async function block (txs: Transaction[]): Promise<Block> {
    for (const tx of txs) js.mempool.add(tx)
    const b = mineBlock(params, js.tipRef(), { txs: js.mempool.select(100), miner })
    t.same(b.transactions.slice(1).map((x) => x.transaction_id), txs.map((x) => x.transaction_id), 'the pool selected the block in order')
    t.equal((await js.chain.processBlock(b, 'test')).status, 'connected')
    t.equal((await wasm.chain.processBlock(b, 'test')).status, 'connected')
    t.same(await wasm.chain.receiptsOfBlock(b.height), await js.chain.receiptsOfBlock(b.height), `block ${b.height}: identical receipts on both cores`)
    t.same(await stateDump(wasm.db), await stateDump(js.db), `block ${b.height}: identical state, indexes and undo records`)
    sent.push(...txs)
    return b
  }
  const receipt = async (tx: Transaction) => await js.chain.getReceipt(tx.transaction_id)

  // block 1: deploy the counter
  const deploy = deployTx(params, dev, next(), counter.bytecode_hex)
  await block([deploy])
  const counterAt = contractAddress(devVm, 0n)
  t.same(await receipt(deploy), {
    type: 'deploy', contract: counterAt, success: true, gas_used: (await receipt(deploy))?.gas_used, logs: [], error: null, revert_reason: null,
    tx_id: deploy.transaction_id, block_height: 1
  }, 'deploy receipt at the address derived from the deployer and its VM nonce 0')
  const deployGas = (await receipt(deploy))?.gas_used ?? 0
  t.ok(deployGas > 0 && deployGas < 1_000_000, `deploy used ${deployGas} gas`)
  t.equal(vmView(js.chain).getNonce(devVm), 1n, 'the deployer\'s VM nonce was bumped')
  t.equal(Buffer.from(vmView(js.chain).getCode(counterAt) ?? []).toString('hex'), Buffer.from(counter.runtime).toString('hex'), 'the runtime code is stored')
  t.equal(vmView(js.chain).getStorage(counterAt, 1n), BigInt('0x' + devVm), 'init() ran: owner = the deployer\'s VM address')

  // block 2: increment, a reverting increment, a read
  const inc = callTx(params, dev, next(), counterAt, counter.calldata('increment', 5))
  const bad = callTx(params, dev, next(), `0x${counterAt}`, counter.calldata('increment', 0))
  const get = callTx(params, dev, next(), counterAt, counter.calldata('get'))
  await block([inc, bad, get])
  t.match(await receipt(inc), {
    type: 'call', to: counterAt, success: true, return_data: word(5), error: null,
    logs: [{ address: counterAt, topics: [topicOf(counter, 'Incremented'), word(5)], data: word(5) }]
  })
  const failed = await receipt(bad)
  t.match(failed, { type: 'call', to: counterAt, success: false, return_data: '', logs: [], error: 'REVERT', revert_reason: 'increment must be positive' })
  t.ok((failed?.gas_used ?? 0) > 0 && (failed?.gas_used ?? 0) < 1_000_000, 'a REVERT keeps the unused gas (but the fee is not refunded)')
  t.match(await receipt(get), { success: true, return_data: word(5) }, 'the reverted call changed nothing')
  t.same((await js.chain.receiptsOfBlock(2)).map((r) => r.tx_id), [inc, bad, get].map((x) => x.transaction_id), 'receipts in block order')
  t.equal(vmView(js.chain).getStorage(counterAt, 0n), 5n)

  // block 3: the guestbook; one call runs out of gas, one deploy carries bad code, one calls nowhere
  const gb = deployTx(params, dev, next(), guestbook.bytecode_hex)
  const gbAt = contractAddress(devVm, 1n)
  const sign = callTx(params, dev, next(), gbAt, guestbook.calldata('sign', 'hello, chain'))
  const starved = callTx(params, dev, next(), gbAt, guestbook.calldata('sign', 'too little gas'), { gasLimit: 30_000 })
  const junk = deployTx(params, dev, next(), '600c0c')
  const nowhere = callTx(params, dev, next(), 'ab'.repeat(20), '01')
  const initArgs = deployTx(params, dev, next(), counter.bytecode_hex, { initCalldata: '01' })
  await block([gb, sign, starved, junk, nowhere, initArgs])
  t.match(await receipt(gb), { success: true, contract: gbAt })
  t.match(await receipt(sign), { success: true, return_data: word(0) })
  t.match(await receipt(starved), { success: false, error: 'out of gas', gas_used: 30_000, logs: [] }, 'out of gas uses the whole limit')
  t.match(await receipt(junk), { type: 'deploy', success: false, gas_used: 0, contract: contractAddress(devVm, 2n) })
  t.match((await receipt(junk))?.error, /^bad code: undefined opcode 0x0c/)
  t.match(await receipt(nowhere), { type: 'call', success: false, gas_used: 0, error: `bad fields: no contract at ${'ab'.repeat(20)}` })
  t.match(await receipt(initArgs), { type: 'deploy', success: false, error: 'bad fields: init_calldata must be empty in this version' })
  t.equal(vmView(js.chain).getNonce(devVm), 4n, 'failed deploys still bumped the VM nonce')
  t.equal(vmView(js.chain).getCode(contractAddress(devVm, 2n)), null, 'a failed deploy stores no code')
  t.equal(vmView(js.chain).getStorage(gbAt, 0n), 1n, 'one entry signed')

  // block 4: value. Bob becomes known to the chain, the multisig is funded and pays him.
  const payBob = transfer(params, dev, bob.address, 1, next())
  const ms = deployTx(params, dev, next(), multisig.bytecode_hex)
  const msAt = contractAddress(devVm, 4n)
  const seal = callTx(params, dev, next(), msAt, multisig.calldata('seal'))
  const deposit = callTx(params, dev, next(), msAt, multisig.calldata('deposit'), { value: 3 })
  const resealWithValue = callTx(params, dev, next(), msAt, multisig.calldata('seal'), { value: 2 })
  const propose = callTx(params, dev, next(), msAt, multisig.calldata('propose', vmAddressOf(bob.address), (10n ** 18n).toString()))
  const execute = callTx(params, dev, next(), msAt, multisig.calldata('execute', 0))
  await block([payBob, ms, seal, deposit, resealWithValue, propose, execute])
  t.match(await receipt(deposit), { success: true, return_data: word(3n * 10n ** 18n) }, 'deposit() sees the value: balance(self()) = 3 coin')
  t.match(await receipt(resealWithValue), { success: false, revert_reason: 'the owner set is sealed' })
  t.match(await receipt(execute), { success: true, logs: [{ address: msAt, topics: [topicOf(multisig, 'Executed'), word(0), word(BigInt('0x' + vmAddressOf(bob.address)))], data: word(10n ** 18n) }] })
  t.equal(vmView(js.chain).getBalance(msAt), 2n * 10n ** 18n, 'the contract keeps 3 - 1 coin in its own account')
  t.equal(js.chain.getAccount(msAt).balance, 2n * 10n ** 18n, 'contract balances live in acct:<vm address>')
  t.equal(js.chain.getAccount(bob.address).balance, 2n * 10n ** 18n, 'the payment to Bob\'s VM address landed in his wallet account')

  const contractTxs = sent.filter((x) => x.recipient === 'contract')
  t.equal(contractTxs.length, nonce - 1, 'every transaction but the transfer went to a contract')
  t.equal(js.chain.getAccount(dev.address).balance, start - feeOf(sent) - coinToBohm(1) - coinToBohm(3),
    'the sender paid every fee in full (no refund), the transfer and the one successful deposit; the reverted call\'s value came back')
  t.equal(js.chain.getAccount(dev.address).nonce, nonce, 'every transaction bumped the sender\'s nonce')
  t.equal(gasFee(1_000_000), 0.001)

  // explorer-side indexes: a contract's history holds the transactions that touched it
  t.same((await js.chain.addressHistory(counterAt, 0, 10)).txIds, [get, bad, inc, deploy].map((x) => x.transaction_id), 'the contract address history, newest first')
})

t.test('mempool admission of contract transactions', async (t) => {
  const tc = await openChain(t, 'wasm')
  const low = deployTx(params, dev, 0, counter.bytecode_hex, { gasLimit: 2_000_000, fee: 0.0019 })
  try {
    tc.mempool.add(low)
    t.fail('admitted a fee below gas_limit x GAS_PRICE')
  } catch (err) {
    t.ok(err instanceof TxError && err.code === TxErrorCode.INSUFFICIENT_FEE, 'InsufficientFee')
    t.match((err as Error).message, /InsufficientFee: fee does not cover gas_limit x GAS_PRICE \(2000000 gas\)/)
  }
  t.ok(tc.mempool.add(deployTx(params, dev, 0, counter.bytecode_hex, { gasLimit: 2_000_000 })), 'fee = gas_limit x GAS_PRICE is admitted')
})

t.test('a reorg undoes contract code, storage, VM nonces and receipts; the transactions replay', async (t) => {
  const node = await startChainNode(params)
  t.teardown(() => node.stop())
  const g = node.chain.tip()
  const deploy = deployTx(params, dev, 0, counter.bytecode_hex)
  const at = contractAddress(devVm, 0n)
  const inc = callTx(params, dev, 1, at, counter.calldata('increment', 7), { withKey: true })
  for (const tx of [deploy, inc]) node.mempool.add(tx)
  const a1 = mineBlock(params, refOf(g), { txs: [deploy] })
  const a2 = mineBlock(params, refOf(a1), { txs: [inc] })
  await feed(node.chain, [a1, a2])
  t.match(await node.chain.getReceipt(inc.transaction_id), { success: true, return_data: word(7), block_height: 2 })
  t.equal(vmView(node.chain).getStorage(at, 0n), 7n)

  const b1 = mineBlock(params, refOf(g), { timestamp: g.timestamp + 2 })
  const b2 = mineBlock(params, refOf(b1))
  const b3 = mineBlock(params, refOf(b2))
  await feed(node.chain, [b1, b2])
  t.equal(node.chain.tip().hash, a2.hash, 'equal work: the first branch stays')
  t.equal((await node.chain.processBlock(b3, 'test')).status, 'reorg')

  t.equal(await node.chain.getReceipt(deploy.transaction_id), undefined, 'the deploy receipt is gone')
  t.equal(await node.chain.getReceipt(inc.transaction_id), undefined, 'the call receipt is gone')
  t.same(await node.chain.receiptsOfBlock(1), [], 'block 1 of the new branch has no receipts')
  const view = vmView(node.chain)
  t.equal(view.getCode(at), null, 'no code')
  t.equal(view.getStorage(at, 0n), 0n, 'no storage')
  t.equal(view.getNonce(devVm), 0n, 'the VM nonce is back to 0')
  t.same((await node.chain.addressHistory(at, 0, 10)).total, 0, 'no history for the contract')

  const fresh = await openTestChain(params, tmpDir(), { vm: 'wasm' })
  try {
    await feed(fresh.chain, [b1, b2, b3])
    t.same(await stateDump(node.db), await stateDump(fresh.db), 'state as if the contract branch had never been connected')
  } finally {
    await fresh.close()
    cleanup(fresh.dir)
  }

  t.ok(node.mempool.has(deploy.transaction_id) && node.mempool.has(inc.transaction_id), 'both contract transactions are pending again')
  const b4 = mineBlock(params, refOf(b3), { txs: node.mempool.select(100) })
  await feed(node.chain, [b4])
  t.match(await node.chain.getReceipt(deploy.transaction_id), { success: true, contract: at, block_height: 4 }, 'the replayed deploy lands at the same address')
  t.match(await node.chain.getReceipt(inc.transaction_id), { success: true, return_data: word(7), block_height: 4 })
  t.equal(vmView(node.chain).getStorage(at, 0n), 7n)
})
