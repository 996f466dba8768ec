// A rogue peer for the `rogue` step: a libp2p node of our own stack that passes the handshake
// (the network's chain id and genesis) and then misbehaves at one node, as the hostile-peer e2e
// tests do against a pair. It connects straight to the node's p2p port (an outsider, not a
// link of the topology). Behaviours:
//   garbage      undecodable bytes on the blocks and transactions topics, every 100 ms
//   false-claim  a status claiming far more work than anyone has, serving no headers
// The victim should penalise and ban it while the network goes on; the figures show whether
// it did (the victim's peer_disconnected of the rogue, and the network's heights).
import crypto from 'node:crypto'
import { generateKeyPair } from '@libp2p/crypto/keys'
import { createLibp2pNode } from '../../plugins/p2p/libp2p-node.ts'
import type { LedgerLibp2p } from '../../plugins/p2p/libp2p-node.ts'
import { registerHandlers } from '../../plugins/p2p/reqresp.ts'
import { parsePeerAddress } from '../../plugins/p2p/address.ts'
import { topics } from '../../plugins/p2p/protocol.ts'
import type { StatusMessage } from '../../plugins/p2p/protocol.ts'
import { nodeVersion } from '../../core/kernel/version.ts'
import type { NetworkParams } from '../../core/chain/params.ts'

export type RogueKind = 'garbage' | 'false-claim'

export interface RogueRun { peerId: string; stop(): Promise<void> }

export async function startRogue (params: NetworkParams, genesisHash: string, victimPort: number, kind: RogueKind): Promise<RogueRun> {
  const node: LedgerLibp2p = await createLibp2pNode({ privateKey: await generateKeyPair('Ed25519'), listen: ['/ip4/127.0.0.1/tcp/0'], maxConnections: 4, isBanned: () => false })
  await node.start()
  const honest: StatusMessage = { chain_id: params.chainId, genesis_hash: genesisHash, best_height: 0, best_hash: genesisHash, best_work: '1', version: nodeVersion(params) }
  const claim: StatusMessage = { ...honest, best_height: 1_000_000, best_hash: 'ff'.repeat(64), best_work: (10n ** 60n).toString() }
  await registerHandlers({ node, params, timeoutMs: 5000 }, {
    status: () => kind === 'false-claim' ? claim : honest,
    headers: async () => [],
    blocks: async function * () {},
    misbehaved: () => {}
  })
  const t = topics(params)
  node.services.pubsub.subscribe(t.blocks)
  node.services.pubsub.subscribe(t.txs)
  let timer: NodeJS.Timeout | null = null
  try {
    await node.dial(parsePeerAddress(`127.0.0.1:${victimPort}`), { signal: AbortSignal.timeout(10_000) })
  } catch {
    // refused (banned earlier, or its slots full): nothing to do
  }
  if (kind === 'garbage') {
    timer = setInterval(() => {
      for (const topic of [t.blocks, t.txs]) node.services.pubsub.publish(topic, crypto.randomBytes(200)).catch(() => { /* no subscriber any more: banned */ })
    }, 100)
    timer.unref()
  }
  return {
    peerId: node.peerId.toString(),
    async stop () {
      if (timer !== null) clearInterval(timer)
      await node.stop()
    }
  }
}
