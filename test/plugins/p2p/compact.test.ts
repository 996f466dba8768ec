// Compact block announcements: short ids, rebuilding from held transactions, collisions.
import t from 'tap'
import { devWallet, generateWallet, mineBlock, testParams, transfer } from '../../helpers/chain.ts'
import { genesisBlock } from '../../../core/chain/genesis.ts'
import { encodeHeader } from '../../../core/chain/header.ts'
import { getPowCore } from '../../../core/pow/pow-core.ts'
import { assemble, decodeCompact, encodeCompact, envelopeMatches, matchesShortId, reconstruct, shortId, shortIdKey } from '../../../plugins/p2p/compact.ts'
import { WireError } from '../../../plugins/p2p/protocol.ts'
import { encodeTx } from '../../../core/chain/tx-codec.ts'
import { leavesOfEncoded, merkleRootOfLeaves } from '../../../core/chain/merkle.ts'
import type { Block, Transaction } from '../../../core/chain/types.ts'
import { createHash } from 'node:crypto'
import { getSha3Core } from '../../../core/crypto/sha3.ts'
import { seededBytes } from '../../helpers/random.ts'

const params = testParams()
const pow = getPowCore('js')
const dev = devWallet()
const txs: Transaction[] = [0, 1, 2, 3].map((n) => transfer(params, dev, generateWallet().address, 1, n, { withKey: n === 0 }))
const g = genesisBlock(params)
const block: Block = mineBlock(params, { hash: g.hash, height: 0, timestamp: g.timestamp }, { txs })
const salt = new Uint8Array(8).fill(7)
const bytes = encodeCompact(block, encodeHeader(block), salt)

t.test('an announcement decodes to the block\'s header, envelope, coinbase and one 6-byte id per transaction', async (t) => {
  const c = decodeCompact(bytes, pow, 100)
  t.equal(c.header.hash, block.hash, 'the hash is computed from the header bytes')
  t.equal(c.shortIds.length, 4)
  t.ok(envelopeMatches(c))
  t.same(c.coinbase, block.transactions[0])
  t.ok(bytes.length < 272 + 8 + 4 * 6 + 8000, `small: ${bytes.length} bytes`)
  for (let i = 1; i <= 4; i++) t.ok(matchesShortId(c, i, block.transactions[i] as Transaction), `short id ${i} names its transaction`)
  t.notOk(matchesShortId(c, 1, block.transactions[2] as Transaction))
})

t.test('short ids are keyed per announcement: another salt, other ids', async (t) => {
  const id = (block.transactions[1] as Transaction).transaction_id
  const k1 = shortIdKey(encodeHeader(block), salt)
  const k2 = shortIdKey(encodeHeader(block), new Uint8Array(8).fill(8))
  t.not(shortId(k1, id), shortId(k2, id))
  t.ok(shortId(k1, id) < 2 ** 48 && shortId(k1, id) >= 0)
})

t.test('a short id is the first 6 bytes of SHA3-256(key ‖ id bytes) on every core and input', async (t) => {
  const key = shortIdKey(encodeHeader(block), salt)
  const byDefinition = (id: string): number => createHash('sha3-256').update(key).update(Buffer.from(id, 'hex')).digest().readUIntBE(0, 6)
  for (let i = 0; i < 50; i++) {
    const id = seededBytes(`short id ${i}`, 32).toString('hex')
    t.equal(shortId(key, id), byDefinition(id))
    t.equal(shortId(key, id, getSha3Core('js')), byDefinition(id), 'the JS twin agrees')
  }
  // what no held transaction has: hashed as Buffer.from reads it, never from the last id's bytes
  shortId(key, 'ab'.repeat(32))
  for (const odd of ['ab', 'zz'.repeat(32), 'AB'.repeat(32)]) t.equal(shortId(key, odd), byDefinition(odd), `id ${odd.slice(0, 8)}…`)
})

t.test('rebuilding: all held, some missing, collisions', async (t) => {
  const c = decodeCompact(bytes, pow, 100)
  const all = reconstruct(c, [...txs, transfer(params, dev, generateWallet().address, 1, 9)])
  t.ok(all.ok && all.missing.length === 0, 'every transaction held: nothing to ask for')
  if (all.ok) t.same(assemble(c, all.txs as Transaction[]), block, 'the rebuilt block is the block')
  const some = reconstruct(c, [txs[0] as Transaction, txs[2] as Transaction])
  t.same(some.ok ? some.missing : null, [2, 4], 'the missing ones by block index')
  // an announcement naming one short id twice cannot be rebuilt: the whole block is fetched
  const dup = { ...c, shortIds: [c.shortIds[0] as number, c.shortIds[0] as number, ...c.shortIds.slice(2)] }
  t.match(reconstruct(dup, txs), { ok: false })
  // two held transactions on one short id: a collision is not guessed at (the whole block is
  // fetched). Two ids that differ only in hex case hash alike, which stands in for a 48-bit twin.
  const first = txs[0] as Transaction
  const twin = { ...first, transaction_id: first.transaction_id.toUpperCase() }
  t.match(reconstruct(c, [first, twin]), { ok: false, reason: /match short id/ })
  // a body that claims a held id but is another transaction is placed, and the merkle root
  // (checked before the block is relayed) refuses it
  const liar = { ...first, amount: 999 }
  const placed = reconstruct(c, [liar, ...txs.slice(1)])
  t.ok(placed.ok)
  if (placed.ok) {
    const forms = (placed.txs as Transaction[]).map((tx) => encodeTx(tx))
    t.not(merkleRootOfLeaves(leavesOfEncoded(forms)), block.merkle_root, 'the merkle root tells the lie apart')
  }
})

t.test('a damaged announcement is a WireError', async (t) => {
  t.throws(() => decodeCompact(bytes.subarray(0, 100), pow, 100), WireError)
  t.throws(() => decodeCompact(bytes, pow, 3), WireError, 'more transactions than a block may hold')
  const bad = Buffer.from(bytes)
  bad[0] = 9
  t.throws(() => decodeCompact(bad, pow, 100), WireError)
  t.throws(() => decodeCompact(Buffer.concat([bytes, Buffer.alloc(1)]), pow, 100), WireError, 'trailing bytes')
})
