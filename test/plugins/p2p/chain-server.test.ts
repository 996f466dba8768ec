// What a node serves its peers is bounded: headers come from the header index (no block body
// is read), and a blocks response stops at its byte budget.
import t from 'tap'
import { cleanup, mineBlock, openTestChain, testParams } from '../../helpers/chain.ts'
import type { Block } from '../../../core/chain/types.ts'
import type { ChainService } from '../../../core/chain/chain-service.ts'
import { chainKey } from '../../../core/chain/keys.ts'
import { encodeBlock } from '../../../core/chain/tx-codec.ts'
import { blocksByHash, headersAfter } from '../../../plugins/p2p/chain-server.ts'
import { encodeHeaderHex } from '../../../plugins/p2p/header-codec.ts'

const params = testParams()

async function chainOf (t: { teardown(fn: () => unknown): void }, n: number): Promise<{ tc: Awaited<ReturnType<typeof openTestChain>>, blocks: Block[] }> {
  const tc = await openTestChain(params)
  t.teardown(async () => { await tc.close(); cleanup(tc.dir) })
  const blocks: Block[] = []
  for (let i = 0; i < n; i++) {
    const b = mineBlock(params, tc.tipRef())
    await tc.chain.processBlock(b, 'test')
    blocks.push(b)
  }
  return { tc, blocks }
}

/** The chain service with body reads counted. */
function counting (chain: ChainService): { chain: ChainService, bodyReads: () => number } {
  let reads = 0
  const wrapped = new Proxy(chain, {
    get (target, key) {
      if (key === 'getBlockByHash' || key === 'getBlockByHeight' || key === 'getBlockBinary') reads++
      const v = Reflect.get(target, key, target) as unknown
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v
    }
  })
  return { chain: wrapped, bodyReads: () => reads }
}

t.test('headers are served from the header index without reading a block body', async (t) => {
  const { tc, blocks } = await chainOf(t, 6)
  const { chain, bodyReads } = counting(tc.chain)
  const locator = [tc.chain.hashAtHeight(2) ?? '']
  t.same(await headersAfter(chain, { locator, max: 2000 }), blocks.slice(2).map(encodeHeaderHex))
  t.same(await headersAfter(chain, { locator, max: 2 }), blocks.slice(2, 4).map(encodeHeaderHex), 'at most max')
  t.equal(bodyReads(), 0, 'no body read')
})

t.test('a block stored before the header index existed is served from its body', async (t) => {
  const { tc, blocks } = await chainOf(t, 3)
  await tc.db.write([{ type: 'del', key: chainKey.header(blocks[1]?.hash ?? '') }])
  const { chain, bodyReads } = counting(tc.chain)
  t.same(await headersAfter(chain, { locator: [tc.chain.genesisHash()], max: 10 }), blocks.map(encodeHeaderHex))
  t.equal(bodyReads(), 1)
})

t.test('a blocks response stops once it holds the byte budget, but always carries one block', async (t) => {
  const { tc, blocks } = await chainOf(t, 5)
  const hashes = blocks.map((b) => b.hash)
  const sizes = await Promise.all(hashes.map(async (h) => (await tc.chain.getBlockBinary(h))?.length ?? 0))
  const [first = 0, second = 0] = sizes
  const collect = async (budget: number): Promise<number> => {
    let n = 0
    for await (const _ of blocksByHash(tc.chain, { hashes }, budget)) n++
    return n
  }
  t.equal(await collect(1), 1, 'one block even when it alone exceeds the budget')
  t.equal(await collect(first + second), 2, 'the block that reaches the budget is the last')
  t.equal(await collect(first + 1), 2, 'the block that crosses the budget is the last')
  t.equal(await collect(first * 100), 5)
  const { chain, bodyReads } = counting(tc.chain)
  for await (const _ of blocksByHash(chain, { hashes }, 1)) { /* drain */ }
  t.equal(bodyReads(), 1, 'blocks beyond the budget are not even read')
})

t.test('blocks by hash: a block not stored yet comes from the held copies (our own, announced when found)', async (t) => {
  const { tc, blocks } = await chainOf(t, 2)
  const found = mineBlock(params, tc.tipRef())
  const heldBytes = encodeBlock(found)
  const held = (hash: string): Uint8Array | undefined => hash === found.hash ? heldBytes : undefined
  const out: Uint8Array[] = []
  for await (const bytes of blocksByHash(tc.chain, { hashes: [blocks[1]?.hash as string, found.hash, 'ff'.repeat(64)] }, undefined, held)) out.push(bytes)
  t.equal(out.length, 2, 'the stored block, the held one, and nothing past an unknown hash')
  t.same(out[1], heldBytes)
  t.same(out[0], await tc.chain.getBlockBinary(blocks[1]?.hash as string), 'the store first')
})
