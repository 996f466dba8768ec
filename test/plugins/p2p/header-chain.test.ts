import t from 'tap'
import { verifyHeaderBatch, HeaderError } from '../../../plugins/p2p/header-chain.ts'
import type { HeaderNode } from '../../../plugins/p2p/header-chain.ts'
import { decodeHeaderHex, encodeHeaderHex } from '../../../plugins/p2p/header-codec.ts'
import type { WireHeader } from '../../../plugins/p2p/header-codec.ts'
import { genesisBlock } from '../../../core/chain/genesis.ts'
import { blockWork } from '../../../core/chain/difficulty.ts'
import { meetsTarget } from '../../../core/pow/pow-core.ts'
import { bitsForDifficulty, bitsTargetBytes, decodeBits } from '../../../core/chain/target.ts'
import type { NetworkParams } from '../../../core/chain/params.ts'
import type { Block } from '../../../core/chain/types.ts'
import { mineBlock, scheduledBranch, testParams, TEST_BITS } from '../../helpers/chain.ts'
import type { BlockOptions } from '../../helpers/chain.ts'
import { jsPowCore } from '../../../core/pow/pow-js.ts'

const now = 1767225600 + 10_000

function setup (params: NetworkParams): { genesis: HeaderNode; lookup: (h: string) => HeaderNode | undefined } {
  const g = genesisBlock(params)
  const genesis: HeaderNode = { hash: g.hash, height: 0, timestamp: g.timestamp, previous_hash: g.previous_hash, bits: g.bits, work: blockWork(g.bits) }
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
  t.equal(out[4]?.work, genesis.work + 5n * blockWork(TEST_BITS), 'work sums 2^512 / (target + 1)')
})

t.test('a header whose hash is above its target is refused', async (t) => {
  const bits = bitsForDifficulty(2)
  const params = testParams({ initialBits: bits, easiestBits: bits, hardestBits: bits })
  const { genesis, lookup } = setup(params)
  const [block] = chainOf(params, genesis, 1) as [Block]
  let h: WireHeader
  do { // another nonce: the header no longer carries its proof of work
    block.nonce++
    h = decodeHeaderHex(encodeHeaderHex(block), jsPowCore)
  } while (meetsTarget(h.hashBytes, bitsTargetBytes(bits)))
  t.throws(() => verifyHeaderBatch(params, [h], lookup, now), { name: 'HeaderError', message: /hash is above its target/ })
})

/** the retargeting test network: difficulty 1 .. 3, target 5 s */
const retargeting = (): NetworkParams => testParams({ fixedDifficulty: false, initialBits: bitsForDifficulty(1), easiestBits: bitsForDifficulty(1), hardestBits: bitsForDifficulty(3), blockTimeTarget: 5 })

/** `n` blocks 1 s apart on genesis, each carrying the bits the schedule demands of it */
function scheduledChain (params: NetworkParams, genesis: HeaderNode, n: number): Block[] {
  return scheduledBranch(params, [genesis.timestamp], { hash: genesis.hash, height: 0, timestamp: genesis.timestamp, bits: genesis.bits }, n)
}

t.test('the target schedule is enforced on headers, retargets included', async (t) => {
  const params = retargeting()
  const { genesis, lookup } = setup(params)
  // blocks 1 s apart against a 5 s target: at height 20 the schedule demands a smaller target
  const good = scheduledChain(params, genesis, 20)
  t.ok(decodeBits(good[19]!.bits) < decodeBits(good[18]!.bits), 'height 20 is harder')
  t.equal(verifyHeaderBatch(params, wire(good), lookup, now).length, 20)
  const stale = chainOf(params, genesis, 20, () => ({ bits: params.initialBits }))
  t.throws(() => verifyHeaderBatch(params, wire(stale), lookup, now), { message: /header 20 has target bits 400fffff, the schedule demands / })
})

/** a valid header's hex with its bits (offset 148) or version (offset 0) rewritten */
const patched = (block: Block, offset: number, value: number): string => {
  const bytes = Buffer.from(encodeHeaderHex(block), 'hex')
  bytes.writeUInt32BE(value, offset)
  return bytes.toString('hex')
}

/** The header with a nonce whose hash meets its target again (work is checked before anything else). */
const resealed = (hex: string): string => {
  const bytes = Buffer.from(hex, 'hex')
  const target = bitsTargetBytes(bytes.readUInt32BE(148))
  for (let nonce = 0; ; nonce++) {
    if (meetsTarget(jsPowCore.hashHeader(bytes.subarray(0, 264), nonce), target)) {
      bytes.writeBigUInt64BE(BigInt(nonce), 264)
      return bytes.toString('hex')
    }
  }
}

t.test('forged targets on headers: non-canonical bits, bits outside the bounds, an easier target than the schedule', async (t) => {
  const params = retargeting()
  const { genesis, lookup } = setup(params)
  const [block] = chainOf(params, genesis, 1) as [Block]
  // the same target spelled with a zero leading mantissa byte: refused before any hashing
  const spelled = decodeHeaderHex(patched(block, 148, 0x4100ffff), jsPowCore)
  t.throws(() => verifyHeaderBatch(params, [spelled], lookup, now), { message: /exponent 65/ })
  const zeroLead = decodeHeaderHex(patched(block, 148, 0x4000ffff), jsPowCore)
  t.throws(() => verifyHeaderBatch(params, [zeroLead], lookup, now), { message: /zero leading byte/ })
  const easier = decodeHeaderHex(patched(block, 148, 0x40ffffff), jsPowCore) // above the easiest bound
  t.throws(() => verifyHeaderBatch(params, [easier], lookup, now), { message: /outside the network's bounds/ })
  const harder = decodeHeaderHex(patched(block, 148, bitsForDifficulty(4)), jsPowCore) // below the hardest bound
  t.throws(() => verifyHeaderBatch(params, [harder], lookup, now), { message: /outside the network's bounds/ })
  // in the bounds but easier than the schedule: a retarget that demanded more
  const good = scheduledChain(params, genesis, 20)
  const forged = mineBlock(params, good[18]!, { bits: params.easiestBits })
  t.throws(() => verifyHeaderBatch(params, wire([...good.slice(0, 19), forged]), lookup, now), { message: /header 20 has target bits 400fffff, the schedule demands / })
})

t.test('a header of another block version is refused', async (t) => {
  const params = testParams()
  const { genesis, lookup } = setup(params)
  const [block] = chainOf(params, genesis, 1) as [Block]
  // patched without its work redone, the header fails its work first, whatever else it breaks
  // (at the test networks' easy target a patched header meets it by chance, 1 in 16: another nonce)
  let unworked = decodeHeaderHex(patched(block, 0, 1), jsPowCore)
  while (meetsTarget(unworked.hashBytes, bitsTargetBytes(block.bits))) {
    block.nonce++
    unworked = decodeHeaderHex(patched(block, 0, 1), jsPowCore)
  }
  t.throws(() => verifyHeaderBatch(params, [unworked], lookup, now), { message: /hash is above its target/ })
  const v1 = decodeHeaderHex(resealed(patched(block, 0, 1)), jsPowCore)
  t.throws(() => verifyHeaderBatch(params, [v1], lookup, now), { message: /block version 1, expected 2/ })
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
