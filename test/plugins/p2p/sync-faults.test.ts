import t from 'tap'
import { encodeBlock } from '../../../core/chain/tx-codec.ts'
import { extend, startP2pNode, waitFor } from './helpers.ts'
import { withBadPow } from './fixtures/rogue.ts'
import { privateChain as chainOnGenesis, rogueServing } from './fixtures/serving-rogue.ts'
import { makeAttestation } from '../../helpers/chain.ts'
import type { Block } from '../../../core/chain/types.ts'

/** the private chain of these tests: its block 2 carries an attestation whose health figure is a lie */
const privateChain = (n: number, spoil?: (b: Block) => Block): Block[] =>
  chainOnGenesis(n, (i, timestamp) => i === 1 ? { attestation: makeAttestation(timestamp, { health: { fano_factor: 9 } }) } : {}, spoil)

t.test('headers without their proof-of-work cost the peer that sent them', async (t) => {
  const victim = await startP2pNode()
  t.teardown(() => victim.stop())
  await extend(victim.chain, 1)
  const chain = privateChain(3, (b) => b.height === 2 ? withBadPow(b) : b)
  const rogue = await rogueServing(t, victim, chain)
  await waitFor('the bad headers to be penalized', () => victim.p2p.score(rogue) === 50)
  t.equal(victim.chain.tip().height, 1, 'no body was fetched')
  t.equal(victim.chain.getBlockMeta(chain[0]?.hash ?? ''), undefined)
  await victim.p2p.syncIdle()
  t.equal(victim.p2p.syncState(), 'synced', 'a peer that served nothing useful does not keep us syncing')
})

t.test('headers that check out but bodies that break the rules get the peer banned', async (t) => {
  const victim = await startP2pNode()
  t.teardown(() => victim.stop())
  await extend(victim.chain, 1)
  const chain = privateChain(3) // block 2 carries an attestation whose health figure is a lie (not the revealed bytes')
  const rogue = await rogueServing(t, victim, chain)
  // The first attempt stores block 1 then fails on block 2; that progress makes the node try
  // the same peer again, which fails the same way: two invalid blocks are a ban.
  await waitFor('the peer serving invalid bodies to be banned', () => victim.p2p.bans().some((b) => b.peer_id === rogue))
  t.match(victim.p2p.bans()[0]?.reason, /BLOCK_ERROR_ATTESTATION_HEALTH_MISMATCH/)
  t.equal(victim.chain.getBlockMeta(chain[0]?.hash ?? '')?.status, 'side', 'the valid first block was stored as a side block')
  t.equal(victim.chain.getBlockMeta(chain[1]?.hash ?? ''), undefined, 'the invalid block was not')
  t.equal(victim.chain.tip().height, 1)
})

t.test('a body that is not the block the header named is malformed', async (t) => {
  const victim = await startP2pNode()
  t.teardown(() => victim.stop())
  const chain = privateChain(1)
  const other = privateChain(1)
  const rogue = await rogueServing(t, victim, chain, { blocks: async function * () { yield encodeBlock(other[0]!) } })
  await waitFor('the substituted body to be penalized', () => victim.p2p.score(rogue) === 25)
  t.equal(victim.chain.tip().height, 0)
})
