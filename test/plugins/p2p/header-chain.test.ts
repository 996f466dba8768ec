import t from 'tap'
import { verifyHeaderBatch, HeaderError } from '../../../plugins/p2p/header-chain.ts'
import type { HeaderNode } from '../../../plugins/p2p/header-chain.ts'
import { decodeHeaderHex, encodeHeaderHex } from '../../../plugins/p2p/header-codec.ts'
import type { WireHeader } from '../../../plugins/p2p/header-codec.ts'
import { genesisBlock } from '../../../core/chain/genesis.ts'
import { blockWork } from '../../../core/chain/difficulty.ts'
import { meetsDifficulty } from '../../../core/pow/pow-core.ts'
import type { NetworkParams } from '../../../core/chain/params.ts'
import type { Block } from '../../../core/chain/types.ts'
import { mineBlock, testParams } from '../../helpers/chain.ts'
import type { BlockOptions } from '../../helpers/chain.ts'
import { jsPowCore } from '../../../core/pow/pow-js.ts'

const now = 1767225600 + 10_000

function setup (params: NetworkParams): { genesis: HeaderNode; lookup: (h: string) => HeaderNode | undefined } {
  const g = genesisBlock(params)
  const genesis: HeaderNode = { hash: g.hash, height: 0, timestamp: g.timestamp, previous_hash: g.previous_hash, difficulty: g.difficulty, work: blockWork(g.difficulty) }
  return { genesis, lookup: (h) => (h === g.hash ? genesis : undefined) }
}

function chainOf (params: NetworkParams, from: HeaderNode, n: number, opts: (height: number) => BlockOptions = () => ({})): Block[] {
  const out: Block[] = []
  let parent = { hash: from.hash, height: from.height, timestamp: from.timestamp }
  for (let i = 0; i < n; i++) {
    const b = mineBlock(params, parent, opts(parent.height + 1))
    out.push(b)
    parent = { hash: b.hash, height: b.height, timestamp: b.timestamp }
  }
  return out
}

const wire = (blocks: Block[]): WireHeader[] => blocks.map((b) => decodeHeaderHex(encodeHeaderHex(b), jsPowCore))

t.test('a valid batch is accepted with cumulative work', async (t) => {
  const params = testParams()
  const { genesis, lookup } = setup(params)
  const blocks = chainOf(params, genesis, 5)
  const out = verifyHeaderBatch(params, wire(blocks), lookup, now)
  t.same(out.map((h) => h.hash), blocks.map((b) => b.hash))
  t.equal(out[4]?.work, genesis.work + 5n * blockWork(1))
})

t.test('a header whose hash misses its difficulty is refused', async (t) => {
  const params = testParams({ initialDifficulty: 2, minDifficulty: 2, maxDifficulty: 2 })
  const { genesis, lookup } = setup(params)
  const [block] = chainOf(params, genesis, 1) as [Block]
  let h: WireHeader
  do { // another nonce: the header no longer carries its proof of work
    block.nonce++
    h = decodeHeaderHex(encodeHeaderHex(block), jsPowCore)
  } while (meetsDifficulty(h.hashBytes, 2))
  t.throws(() => verifyHeaderBatch(params, [h], lookup, now), { name: 'HeaderError', message: /does not meet its difficulty/ })
})

t.test('the difficulty schedule is enforced on headers, retargets included', async (t) => {
  const params = testParams({ fixedDifficulty: false, initialDifficulty: 1, minDifficulty: 1, maxDifficulty: 3, blockTimeTarget: 5 })
  const { genesis, lookup } = setup(params)
  // Blocks 1 s apart against a 5 s target: at height 10 the schedule raises difficulty to 2.
  const good = chainOf(params, genesis, 10, (h) => ({ difficulty: h >= 10 ? 2 : 1 }))
  t.equal(verifyHeaderBatch(params, wire(good), lookup, now).length, 10)
  const stale = chainOf(params, genesis, 10, () => ({ difficulty: 1 }))
  t.throws(() => verifyHeaderBatch(params, wire(stale), lookup, now), { message: /header 10 has difficulty 1, the schedule demands 2/ })
})

t.test('linkage, height, time and unknown parents are checked', async (t) => {
  const params = testParams()
  const { genesis, lookup } = setup(params)
  const a = chainOf(params, genesis, 3)
  const b = chainOf(params, genesis, 3)
  t.throws(() => verifyHeaderBatch(params, wire([a[0] as Block, b[1] as Block]), lookup, now), HeaderError, 'does not extend the one before')
  t.throws(() => verifyHeaderBatch(params, wire([a[1] as Block]), lookup, now), { message: /does not connect/ })
  const future = chainOf(params, genesis, 1, () => ({ timestamp: now + params.maxFutureDrift + 10 }))
  t.throws(() => verifyHeaderBatch(params, wire(future), lookup, now), { message: /future/ })
  const backwards = chainOf(params, genesis, 1, () => ({ timestamp: genesis.timestamp }))
  t.throws(() => verifyHeaderBatch(params, wire(backwards), lookup, now), { message: /not later than its parent/ })
})
