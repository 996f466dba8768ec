// A rogue peer sends a real node process garbage, a block with a bad attestation and one with
// a bad proof-of-work: it is banned (persisted in the data dir) and dropped, while the honest
// nodes keep going.
import t from 'tap'
import path from 'node:path'
import { existsSync, readFileSync } from 'node:fs'
import { NETWORKS } from '../../config/networks.ts'
import { genesisBlock } from '../../core/chain/genesis.ts'
import { blockWork } from '../../core/chain/difficulty.ts'
import { nodeVersion } from '../../core/kernel/version.ts'
import type { Block } from '../../core/chain/types.ts'
import { encodeBlock } from '../../core/chain/tx-codec.ts'
import { cleanup, makeAttestation, mineBlock } from '../helpers/chain.ts'
import { spawnNode, waitUntil } from '../plugins/p2p/fixtures/processes.ts'
import type { NodeProcess } from '../plugins/p2p/fixtures/processes.ts'
import { startRogue, withBadPow } from '../plugins/p2p/fixtures/rogue.ts'
import { BANS_FILE } from '../../plugins/p2p/p2p.ts'

const params = NETWORKS.devnet

t.test('a rogue peer is banned and dropped; the honest nodes carry on', async (t) => {
  const nodes: NodeProcess[] = []
  t.teardown(async () => { for (const n of nodes) { await n.stop(); cleanup(n.dataDir) } })
  const a = await spawnNode({ name: 'a', produce: true, intervalMs: 400 })
  nodes.push(a)
  const b = await spawnNode({ name: 'b', peers: [a.address] })
  nodes.push(b)
  await waitUntil('b to follow a', async () => (await b.state()).height >= 2)

  // The rogue claims the bare genesis chain of the network: enough to pass the handshake.
  const g = genesisBlock(params)
  const rogue = await startRogue(t, params, a.address, () => ({
    chain_id: params.chainId, genesis_hash: g.hash, best_height: 0, best_hash: g.hash, best_work: blockWork(g.bits).toString(), version: nodeVersion(params)
  }))
  await waitUntil('a to accept the rogue as a peer', async () => (await a.state()).peers.some((p) => p.peer_id === rogue.peerId))

  const onTip = async (opts: Parameters<typeof mineBlock>[2] = {}): Promise<Block> => {
    const s = await a.state()
    const timestamp = s.timestamp + 0.5
    return mineBlock(params, { hash: s.hash, height: s.height, timestamp: s.timestamp }, { timestamp, difficulty: 2, ...opts })
  }
  await rogue.publishBlockBytes(Buffer.from('\u0000garbage frame\uffff'))
  const tip = await a.state()
  await rogue.publishBlockBytes(encodeBlock(await onTip({ attestation: makeAttestation(tip.timestamp + 0.5, { health: { fano_factor: 9 } }) })))
  await rogue.publishBlockBytes(encodeBlock(withBadPow(await onTip())))

  const bansFile = path.join(a.dataDir, BANS_FILE)
  await waitUntil('a to ban the rogue (persisted)', async () => existsSync(bansFile) && readFileSync(bansFile, 'utf8').includes(rogue.peerId))
  await waitUntil('the rogue to be disconnected', async () => rogue.node.getConnections().length === 0 && !(await a.state()).peers.some((p) => p.peer_id === rogue.peerId))
  const messages = a.log.map((l) => { try { return JSON.parse(l) as { msg?: string; code?: string; reason?: string } } catch { return {} } })
  t.ok(messages.some((m) => m.code === 'BLOCK_ERROR_ATTESTATION_HEALTH_MISMATCH'), 'the lying attestation was rejected')
  t.ok(messages.some((m) => m.code === 'BLOCK_ERROR_BAD_POW'), 'the bad proof-of-work was rejected')
  t.ok(messages.some((m) => m.msg === 'peer banned'), 'the ban is logged')

  const before = (await b.state()).height
  await waitUntil('b to keep following a', async () => {
    const [sa, sb] = await Promise.all([a.state(), b.state()])
    return sb.height >= before + 3 && sa.hash === sb.hash
  })
  t.equal((await b.state()).peers.length, 1, 'b still has its one honest peer')
})
