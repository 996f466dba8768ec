// Seeded fuzzing of what peers and clients send the chain: transactions, blocks and headers,
// random and mutated from valid ones. Decoding and validation may refuse anything, but only
// with the domain's errors (TxError, BlockError, WireError, HeaderError): any other exception
// would be taken for this node's own failure (issue 12 item 6), so a hostile object that
// raised one would never be marked invalid nor its sender penalised.
import t from 'tap'
import fc from 'fast-check'
import { openTestChain, mineBlock, sealBlock, transfer, devWallet, generateWallet, cleanup, testParams } from '../../helpers/chain.ts'
import { deployTx, callTx } from '../../helpers/contracts.ts'
import { checkTxFormat, checkTxSignature } from '../../../core/chain/tx-rules.ts'
import { checkBlockFormat, validateBlockContext } from '../../../core/chain/validate.ts'
import { merkleRoot } from '../../../core/chain/merkle.ts'
import { genesisBlock } from '../../../core/chain/genesis.ts'
import { BlockError, TxError } from '../../../core/chain/errors.ts'
import type { Block, Transaction } from '../../../core/chain/types.ts'
import type { BlockMeta } from '../../../core/chain/keys.ts'
import { contractAddress } from '../../../core/vm/index.ts'
import { decodeHeaderHex, encodeHeaderHex } from '../../../plugins/p2p/header-codec.ts'
import { verifyHeaderBatch, HeaderError } from '../../../plugins/p2p/header-chain.ts'
import type { HeaderNode } from '../../../plugins/p2p/header-chain.ts'
import { WireError } from '../../../plugins/p2p/protocol.ts'
import { jsPowCore } from '../../../core/pow/pow-js.ts'
import { Cores } from '../../../core/cores/cores.ts'

const SEED = Number(process.env.FUZZ_SEED ?? 20261123)
const dev = devWallet()
const params = testParams()

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type Path = Array<string | number>

/** every position in a JSON value: the root, each container and each leaf */
function paths (value: Json, at: Path = []): Path[] {
  const out: Path[] = [at]
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...at, i])))
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...at, k]))
  return out
}

interface Mutation { pick: number; op: number; value: Json; key: string }
const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  pick: fc.nat(),
  op: fc.nat({ max: 5 }),
  value: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
  key: fc.string({ maxLength: 12 })
})

/** What a relay could do to an object: replace, drop, add, retype, duplicate or stretch a part. */
function mutate (root: Json, m: Mutation): Json {
  const copy = structuredClone(root)
  const all = paths(copy)
  const path = all[m.pick % all.length] as Path
  if (path.length === 0) return m.op === 0 ? m.value : copy
  const parent = path.slice(0, -1).reduce<Json>((v, k) => (v as Record<string | number, Json>)[k] as Json, copy) as Record<string | number, Json>
  const last = path[path.length - 1] as string | number
  const cur = parent[last] as Json
  switch (m.op) {
    case 0: parent[last] = m.value; break
    case 1: if (Array.isArray(parent)) parent.splice(last as number, 1); else delete parent[last]; break
    case 2: if (cur !== null && typeof cur === 'object' && !Array.isArray(cur)) cur[m.key] = m.value; else parent[last] = { [m.key]: m.value }; break
    case 3: parent[last] = typeof cur === 'number' ? String(cur) : typeof cur === 'string' ? (Number.isNaN(Number(cur)) ? cur.toUpperCase() : Number(cur)) : cur === null ? 0 : null; break
    case 4: if (Array.isArray(cur)) cur.push(structuredClone(cur[0] ?? null)); else parent[last] = [cur]; break
    default: parent[last] = typeof cur === 'string' ? cur + cur.slice(0, 1 + (m.pick % 64)) : typeof cur === 'number' ? cur * -1.5 : cur
  }
  return copy
}

const isDomainError = (err: unknown): boolean => err instanceof TxError || err instanceof BlockError || err instanceof WireError || err instanceof HeaderError

function onlyDomainErrors (run: () => unknown): boolean {
  try { run() } catch (err) {
    if (isDomainError(err)) return true
    throw err
  }
  return true
}

const asJson = (v: unknown): Json => JSON.parse(JSON.stringify(v)) as Json

t.test('transactions: random and mutated ones raise only TxError', async (t) => {
  const first = transfer(params, dev, generateWallet().address, 1, 0, { data: { memo: 'hello' } })
  const deploy = deployTx(params, dev, 1, '6000', { withKey: true })
  const call = callTx(params, dev, 2, contractAddress(dev.vmAddress, 0n), '01' + '00'.repeat(32), { withKey: false })
  const seeds = [first, deploy, call].map(asJson)
  const check = (tx: unknown): boolean => onlyDomainErrors(() => {
    checkTxFormat(params, tx as Transaction)
    checkTxSignature(tx as Transaction, { publicKey: null })
  })
  fc.assert(fc.property(fc.jsonValue({ maxDepth: 3 }), (v) => check(v)), { seed: SEED, numRuns: 500 })
  fc.assert(fc.property(fc.nat({ max: seeds.length - 1 }), fc.array(mutationArb, { minLength: 1, maxLength: 3 }), (i, ms) =>
    check(ms.reduce((v, m) => mutate(v, m), seeds[i] as Json))), { seed: SEED + 1, numRuns: 1500 })
  t.pass('no exception outside the domain')
})

t.test('blocks: random and mutated ones raise only BlockError from format and context checks', async (t) => {
  const cores = new Cores({ pow: 'js' })
  await cores.ready()
  const g = genesisBlock(params)
  const parent: BlockMeta = { hash: g.hash, height: 0, previous_hash: g.previous_hash, timestamp: g.timestamp, difficulty: g.difficulty, bits: g.bits, tx_count: 1, miner: g.miner, work: '1', status: 'main' }
  const valid = asJson(mineBlock(params, { hash: g.hash, height: 0, timestamp: g.timestamp }, { txs: [transfer(params, dev, generateWallet().address, 1, 0)] }))
  const check = (b: unknown): boolean => onlyDomainErrors(() => {
    checkBlockFormat(b)
    validateBlockContext(params, b, { parent, expectedBits: params.initialBits, now: g.timestamp + 100, cores })
  })
  fc.assert(fc.property(fc.jsonValue({ maxDepth: 3 }), (v) => check(v)), { seed: SEED + 2, numRuns: 500 })
  fc.assert(fc.property(fc.array(mutationArb, { minLength: 1, maxLength: 3 }), (ms) => check(ms.reduce((v, m) => mutate(v, m), valid))), { seed: SEED + 3, numRuns: 1500 })
  t.pass('no exception outside the domain')
})

t.test('headers: random and mutated hex raise only WireError and HeaderError', async (t) => {
  const g = genesisBlock(params)
  const block = mineBlock(params, { hash: g.hash, height: 0, timestamp: g.timestamp })
  const hex = encodeHeaderHex(block)
  const genesisNode: HeaderNode = { hash: g.hash, height: 0, timestamp: g.timestamp, difficulty: g.difficulty, work: 1n } as unknown as HeaderNode
  const check = (h: string): boolean => onlyDomainErrors(() => {
    const decoded = decodeHeaderHex(h, jsPowCore)
    verifyHeaderBatch(params, [decoded], (hash) => (hash === g.hash ? genesisNode : undefined), g.timestamp + 100)
  })
  t.ok(check(hex), 'the valid header passes')
  const flip = fc.tuple(fc.nat({ max: hex.length - 1 }), fc.constantFrom(...'0123456789abcdefABCDEFxz '.split('')))
  fc.assert(fc.property(fc.array(flip, { minLength: 1, maxLength: 8 }), (flips) => {
    const chars = hex.split('')
    for (const [at, c] of flips) chars[at] = c
    return check(chars.join(''))
  }), { seed: SEED + 4, numRuns: 1500 })
  fc.assert(fc.property(fc.string({ maxLength: 600 }), (s) => check(s)), { seed: SEED + 5, numRuns: 500 })
  t.pass('no exception outside the domain')
})

t.test('processBlock on mutated blocks, resealed so they reach the state rules: only BlockError', async (t) => {
  const tc = await openTestChain(params, undefined, { vm: 'js' })
  t.teardown(async () => { await tc.close(); cleanup(tc.dir) })
  const bob = generateWallet()
  const txs = [
    transfer(params, dev, bob.address, 1, 0, { data: { memo: 'fuzz' } }),
    deployTx(params, dev, 1, '60016000f3', { withKey: false }),
    callTx(params, dev, 2, contractAddress(dev.vmAddress, 0n), '01', { withKey: false })
  ]
  const base = asJson(mineBlock(params, tc.tipRef(), { txs }))
  let outcomes = 0
  const codes = new Set<string>()
  await fc.assert(fc.asyncProperty(fc.array(mutationArb, { minLength: 1, maxLength: 3 }), fc.boolean(), async (ms, reseal) => {
    const block = ms.reduce((v, m) => mutate(v, m), base) as unknown as Block
    if (reseal) {
      // a miner's own mutation: merkle root and proof-of-work made to match, where the shape allows
      try { block.merkle_root = merkleRoot(block.transactions); sealBlock(block) } catch { /* left as mutated */ }
    }
    // a mutation that changed nothing is the base block itself: connecting it would make every
    // later mutant that keeps its claimed hash merely "known", and the rules behind it untried
    if (JSON.stringify(block) === JSON.stringify(base)) { outcomes++; return }
    try {
      await tc.chain.processBlock(block, 'peer')
    } catch (err) {
      if (!(err instanceof BlockError)) throw err
      codes.add(err.code)
    }
    outcomes++
  }), { seed: SEED + 6, numRuns: 400 })
  t.equal(outcomes, 400)
  t.comment(`refusals seen: ${[...codes].sort().join(' ')}`)
  for (const code of ['BLOCK_ERROR_BAD_FORMAT', 'BLOCK_ERROR_BAD_HASH', 'BLOCK_ERROR_BAD_TX']) t.ok(codes.has(code), `mutations reached ${code}`)
  t.ok(tc.chain.tip().height <= 1, 'nothing but a valid block ever connected')
})
