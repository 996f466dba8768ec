// Hostile peers in one process: side blocks that cannot win, claims of work never delivered,
// responses cut short or stretched past their byte budget.
import t from 'tap'
import { extend, params, startP2pNode, waitFor } from './helpers.ts'
import type { P2pTestNode } from './helpers.ts'
import { startRogue } from './fixtures/rogue.ts'
import type { RogueServes } from './fixtures/rogue.ts'
import { encodeHeaderHex } from '../../../plugins/p2p/header-codec.ts'
import { PENALTY } from '../../../plugins/p2p/misbehaviour.ts'
import { genesisBlock } from '../../../core/chain/genesis.ts'
import { blockWork } from '../../../core/chain/difficulty.ts'
import { mineBlock, testParams } from '../../helpers/chain.ts'
import { seededBytes } from '../../helpers/random.ts'
import type { ParentRef } from '../../helpers/chain.ts'
import { nodeVersion } from '../../../core/kernel/version.ts'
import type { StatusMessage } from '../../../plugins/p2p/protocol.ts'
import type { Block } from '../../../core/chain/types.ts'
import { encodeBlock } from '../../../core/chain/tx-codec.ts'

const shortReorgs = testParams({ maxReorgDepth: 3 })

function refAt (n: P2pTestNode, height: number): ParentRef {
  const meta = n.chain.getBlockMeta(n.chain.hashAtHeight(height) ?? '')
  if (meta === undefined) throw new Error(`no block at ${height}`)
  return { hash: meta.hash, height: meta.height, timestamp: meta.timestamp }
}

/** A chain of `n` blocks on genesis that no node has seen. */
function privateChain (n: number): Block[] {
  const g = genesisBlock(params)
  const out: Block[] = []
  let parent: ParentRef = { hash: g.hash, height: 0, timestamp: g.timestamp }
  for (let i = 0; i < n; i++) {
    const b = mineBlock(params, parent, { timestamp: parent.timestamp + 1 })
    out.push(b)
    parent = { hash: b.hash, height: b.height, timestamp: b.timestamp }
  }
  return out
}

let claims = 0
function claim (victim: P2pTestNode, over: Partial<StatusMessage> = {}): StatusMessage {
  return { chain_id: params.chainId, genesis_hash: victim.chain.genesisHash(), best_height: 1_000_000, best_hash: seededBytes(`claim ${claims++}`, 64).toString('hex'), best_work: (10n ** 60n).toString(), version: nodeVersion(params), ...over }
}

const serving = (blocks: Block[], perResponse = Infinity): RogueServes => ({
  headers: async () => blocks.map(encodeHeaderHex),
  blocks: async function * (req) {
    let n = 0
    for (const hash of req.hashes) {
      const b = blocks.find((x) => x.hash === hash)
      if (b === undefined || n++ >= perResponse) return
      yield encodeBlock(b)
    }
  }
})

t.test('gossiped side blocks that cannot win are neither stored nor relayed, and cost their sender', async (t) => {
  const a = await startP2pNode({ params: shortReorgs })
  t.teardown(() => a.stop())
  const b = await startP2pNode({ params: shortReorgs, peers: [a.address] })
  t.teardown(() => b.stop())
  await extend(a.chain, 5)
  await waitFor('b to follow', () => b.chain.tip().hash === a.chain.tip().hash)
  const rogue = await startRogue(t, shortReorgs, a.address, () => claim(a, { best_height: 0, best_hash: a.chain.genesisHash(), best_work: '1' }))
  await waitFor('the rogue to pass the handshake', () => a.p2p.peers().some((p) => p.peer_id === rogue.peerId))

  const g = genesisBlock(params)
  const stale = mineBlock(params, { hash: g.hash, height: 0, timestamp: g.timestamp }, { timestamp: g.timestamp + 1 }) // forks 5 below the tip, limit 3
  await rogue.publishBlockBytes(encodeBlock(stale))
  await waitFor('the stale block to be penalized', () => a.p2p.score(rogue.peerId) === PENALTY.staleBlock)
  const light = mineBlock(params, refAt(a, 3), { timestamp: refAt(a, 3).timestamp + 0.5 }) // height 4 < tip 5
  await rogue.publishBlockBytes(encodeBlock(light))
  await waitFor('the light block to be penalized', () => a.p2p.score(rogue.peerId) === PENALTY.staleBlock + PENALTY.lightBlock)
  const rival = mineBlock(params, refAt(a, 4), { timestamp: refAt(a, 4).timestamp + 0.5 }) // height 5: equal work, a fair race
  await rogue.publishBlockBytes(encodeBlock(rival))
  await waitFor('the rival to be stored as a side block', () => a.chain.getBlockMeta(rival.hash)?.status === 'side')
  await waitFor('the rival to be relayed to b', () => b.chain.getBlockMeta(rival.hash)?.status === 'side')
  t.equal(a.p2p.score(rogue.peerId), PENALTY.staleBlock + PENALTY.lightBlock, 'a fair race costs nothing')
  for (const block of [stale, light]) {
    t.equal(a.chain.getBlockMeta(block.hash), undefined, 'not stored')
    t.equal(b.chain.getBlockMeta(block.hash), undefined, 'not relayed')
  }
  await extend(a.chain, 2)
  await waitFor('b to keep following a', () => b.chain.tip().hash === a.chain.tip().hash)
  t.equal(a.p2p.score(b.p2p.peerId ?? ''), 0, 'the honest peer has a clean record')
})

for (const [name, delayMs] of [['at once', 0], ['just under the request timeout', 1200]] as const) {
  t.test(`a peer claiming work it never delivers (answering ${name}) is penalized once and not chosen again`, async (t) => {
    const victim = await startP2pNode({ p2p: { requestTimeoutMs: 1500, statusIntervalMs: 200 } })
    t.teardown(() => victim.stop())
    await extend(victim.chain, 2)
    let statusCalls = 0
    let headerCalls = 0
    const states: string[] = []
    const rogue = await startRogue(t, params, victim.address, () => {
      statusCalls++
      return claim(victim) // a new best_hash every time
    }, {
      headers: async () => {
        headerCalls++
        await new Promise((resolve) => setTimeout(resolve, delayMs))
        states.push(victim.p2p.syncState())
        return []
      }
    })
    await waitFor('the unbacked claim to be penalized', () => victim.p2p.score(rogue.peerId) === PENALTY.unbackedClaim, 10_000)
    const polled = statusCalls
    await waitFor('five more status polls, each with a new claim', () => statusCalls >= polled + 5)
    t.equal(headerCalls, 1, 'the peer was not asked again, whatever it claimed')
    t.equal(victim.p2p.score(rogue.peerId), PENALTY.unbackedClaim, 'penalized once')
    // the stall window is 750 ms here, so the grace for unproven headers too
    if (delayMs > 750) t.same(states, ['synced'], 'past the grace, a claim alone does not keep the node "syncing" (its miner mines)')
    t.equal(victim.chain.tip().height, 2)
  })
}

t.test('a blocks response cut short by the byte budget is asked for again until the branch is in', async (t) => {
  const victim = await startP2pNode()
  t.teardown(() => victim.stop())
  const chain = privateChain(5)
  const tip = chain[4] as Block
  // it claims exactly the work it has: a claim that is delivered costs nothing
  const work = chain.reduce((w, b) => w + blockWork(b.bits), blockWork(genesisBlock(params).bits))
  const rogue = await startRogue(t, params, victim.address, () => claim(victim, { best_height: tip.height, best_hash: tip.hash, best_work: work.toString() }), serving(chain, 1))
  await waitFor('the victim to download the branch one block per response', () => victim.chain.tip().hash === tip.hash)
  await victim.p2p.syncIdle()
  t.equal(victim.p2p.score(rogue.peerId), 0)
})

t.test('a blocks response that goes on past its byte budget is malformed', async (t) => {
  const victim = await startP2pNode()
  t.teardown(() => victim.stop())
  const chain = privateChain(3)
  const tip = chain[2] as Block
  const junk = new Uint8Array(5 * 1024 * 1024).fill(0x20)
  const rogue = await startRogue(t, params, victim.address, () => claim(victim, { best_height: tip.height, best_hash: tip.hash }), {
    headers: serving(chain).headers,
    blocks: async function * () { for (let i = 0; i < 3; i++) yield junk }
  })
  await waitFor('the oversized response to be penalized', () => victim.p2p.score(rogue.peerId) === PENALTY.malformed, 10_000)
  t.equal(victim.chain.tip().height, 0)
  t.equal(victim.p2p.syncState(), 'synced')
})

t.test('a download that stalls stops counting as syncing before the request even times out (the miner resumes)', async (t) => {
  const victim = await startP2pNode({ p2p: { requestTimeoutMs: 4000 } }) // stall window 2 s
  t.teardown(() => victim.stop())
  const chain = privateChain(3)
  const tip = chain[2] as Block
  let withholding = false
  const rogue = await startRogue(t, params, victim.address, () => claim(victim, { best_height: tip.height, best_hash: tip.hash }), {
    headers: serving(chain).headers,
    blocks: async function * () {
      withholding = true
      await new Promise((resolve) => setTimeout(resolve, 4500))
      withholding = false
    }
  })
  await waitFor('the checked heavier headers to make the victim "syncing"', () => victim.p2p.syncState() === 'syncing')
  await waitFor('the stalled download to stop counting as syncing', () => victim.p2p.syncState() === 'synced')
  t.ok(withholding, 'while the body request was still pending')
  await waitFor('the timed-out peer to be penalized', () => victim.p2p.score(rogue.peerId) === PENALTY.unresponsive)
})

t.test('a blocks response with an undecodable frame: the blocks before it connect, then the peer is penalized as malformed', async (t) => {
  const victim = await startP2pNode()
  t.teardown(() => victim.stop())
  const chain = privateChain(4)
  const tip = chain[3] as Block
  let responses = 0
  const honest = serving(chain)
  // the chain's true work: once it is delivered, no claim goes unbacked
  const work = chain.reduce((w, b) => w + blockWork(b.bits), blockWork(genesisBlock(params).bits))
  const rogue = await startRogue(t, params, victim.address, () => claim(victim, { best_height: tip.height, best_hash: tip.hash, best_work: work.toString() }), {
    headers: honest.headers,
    blocks: async function * (req) {
      if (responses++ > 0) { yield * (honest.blocks as NonNullable<RogueServes['blocks']>)(req); return }
      // the first response: two blocks as asked, then bytes that are no block's binary form
      for (const hash of req.hashes.slice(0, 2)) yield encodeBlock(chain.find((b) => b.hash === hash) as Block)
      yield new Uint8Array([0x02, 0xff, 0xff])
    }
  })
  await waitFor('the undecodable frame to be penalized', () => victim.p2p.score(rogue.peerId) >= PENALTY.malformed, 10_000)
  const score = victim.p2p.score(rogue.peerId)
  t.equal(score, PENALTY.malformed, `penalized once, as malformed (score ${score}, tip ${victim.chain.tip().height}, responses ${responses})`)
  t.ok(victim.chain.tip().height >= 2, 'the two good blocks before it were connected')
  t.equal(victim.chain.hashAtHeight(2), (chain[1] as Block).hash)
})
