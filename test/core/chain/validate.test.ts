// blockValidation hands its caller what it has established, as data, at fixed points of the
// rules' order (the chain's verify pipeline starts its pool work on them): the stages come in
// order, carry the bytes the rules were checked over, and none comes before proof of work.
import t from 'tap'
import { mineBlock, sealWithoutPow, transfer, devWallet, generateWallet, testParams } from '../../helpers/chain.ts'
import { blockValidation, validateBlockContext } from '../../../core/chain/validate.ts'
import type { HeaderContext, ValidationStage } from '../../../core/chain/validate.ts'
import { genesisBlock } from '../../../core/chain/genesis.ts'
import { encodeHeader } from '../../../core/chain/header.ts'
import { encodeTx } from '../../../core/chain/tx-codec.ts'
import { BlockError, BlockErrorCode } from '../../../core/chain/errors.ts'
import type { Block } from '../../../core/chain/types.ts'
import type { BlockMeta } from '../../../core/chain/keys.ts'
import type { NetworkParams } from '../../../core/chain/params.ts'
import { Cores } from '../../../core/cores/cores.ts'

const params = testParams()
const g = genesisBlock(params)
const parent: BlockMeta = { hash: g.hash, height: 0, previous_hash: g.previous_hash, timestamp: g.timestamp, difficulty: g.difficulty, bits: g.bits, tx_count: 1, miner: g.miner, work: '1', status: 'main' }
const ref = { hash: g.hash, height: 0, timestamp: g.timestamp }

/** the stages a block's validation yields, and how it ended (its return value or its error code) */
function run (block: Block, ctx: HeaderContext, rules: NetworkParams = params): { stages: ValidationStage[]; end: unknown } {
  const stages: ValidationStage[] = []
  const steps = blockValidation(rules, block, ctx)
  try {
    let step = steps.next()
    while (step.done !== true) { stages.push(step.value); step = steps.next() }
    return { stages, end: step.value }
  } catch (err) {
    return { stages, end: err instanceof BlockError ? err.code : err }
  }
}

t.test('a valid block: proof of work, then its encoded transactions and header, then done', async (t) => {
  const cores = new Cores({ pow: 'js' })
  await cores.ready()
  const ctx: HeaderContext = { parent, expectedBits: params.initialBits, now: g.timestamp + 100, cores }
  const block = mineBlock(params, ref, { txs: [transfer(params, devWallet(), generateWallet().address, 1, 0)] })
  const { stages, end } = run(block, ctx)
  t.same(stages.map((s) => s.stage), ['proof-of-work', 'encoded'])
  const encoded = stages[1]
  if (encoded?.stage !== 'encoded') throw new Error('no encoded stage')
  t.same(encoded.txs.map((b) => Buffer.from(b).toString('hex')), block.transactions.map((tx) => encodeTx(tx).toString('hex')), 'the binary forms the merkle root is checked over')
  t.equal(Buffer.from(encoded.header).toString('hex'), Buffer.from(encodeHeader(block, cores.sha3)).toString('hex'), 'the header bytes the proof of work was checked over')
  t.equal(end, null)
  t.equal(validateBlockContext(params, block, ctx), null, 'validateBlockContext runs the same stages to the end')
})

t.test('no work: refused as such before any stage, whatever else the block breaks', async (t) => {
  const cores = new Cores({ pow: 'js' })
  await cores.ready()
  const ctx: HeaderContext = { parent, expectedBits: params.initialBits, now: g.timestamp + 100, cores }
  // a timestamp not after the parent's as well: proof of work is still what it is refused for
  const block = sealWithoutPow(mineBlock(params, ref, { timestamp: g.timestamp }))
  const { stages, end } = run(block, ctx)
  t.same(stages, [])
  t.equal(end, BlockErrorCode.BAD_POW)
})

t.test('a rule after proof of work: the stages reached before it, and its error', async (t) => {
  const cores = new Cores({ pow: 'js' })
  await cores.ready()
  const ctx: HeaderContext = { parent, expectedBits: params.initialBits, now: g.timestamp + 100, cores }
  const early = run(mineBlock(params, ref, { timestamp: g.timestamp }), ctx)
  t.same(early.stages, [], 'a timestamp not after the parent\'s: refused before the proof-of-work stage')
  t.equal(early.end, BlockErrorCode.BAD_TIMESTAMP)
  const block = mineBlock(params, ref, { txs: [transfer(params, devWallet(), generateWallet().address, 1, 0)] })
  const tooLarge = run(block, ctx, { ...params, maxBlockBytes: 100 })
  t.same(tooLarge.stages.map((s) => s.stage), ['proof-of-work'], 'refused on its size before its binary forms are handed out')
  t.equal(tooLarge.end, BlockErrorCode.TOO_LARGE)
  const tooMany = run(block, ctx, { ...params, maxTxPerBlock: 0 })
  t.same(tooMany.stages.map((s) => s.stage), ['proof-of-work'])
  t.equal(tooMany.end, BlockErrorCode.TOO_MANY_TXS)
})
