// The libp2p stack of a ledger node: TCP, noise, yamux, identify and gossipsub, with a
// connection gater that keeps banned peers out.
import { createLibp2p } from 'libp2p'
import type { Libp2p, Metrics, PeerId, PrivateKey } from '@libp2p/interface'
import { tcp } from '@libp2p/tcp'
import { noise } from '@chainsafe/libp2p-noise'
import { yamux } from '@chainsafe/libp2p-yamux'
import { identify } from '@libp2p/identify'
import type { Identify } from '@libp2p/identify'
import { gossipsub } from '@libp2p/gossipsub'
import type { GossipSub } from '@libp2p/gossipsub'
import { LIMITS } from './protocol.ts'
import { ledgerNoiseCrypto } from './noise-crypto.ts'

export type LedgerLibp2p = Libp2p<{ identify: Identify; pubsub: GossipSub }>

export interface Libp2pNodeOptions {
  privateKey: PrivateKey
  /** listen multiaddrs, e.g. /ip4/0.0.0.0/tcp/18333 */
  listen: string[]
  maxConnections: number
  isBanned(peerId: string): boolean
  /** libp2p's metrics component (the traffic meter), if any */
  metrics?: Metrics
}

export async function createLibp2pNode (o: Libp2pNodeOptions): Promise<LedgerLibp2p> {
  const banned = (peer: PeerId): boolean => o.isBanned(peer.toString())
  return await createLibp2p({
    privateKey: o.privateKey,
    addresses: { listen: o.listen },
    transports: [tcp()],
    connectionEncrypters: [noise({ crypto: ledgerNoiseCrypto })],
    streamMuxers: [yamux()],
    connectionManager: { maxConnections: o.maxConnections },
    ...(o.metrics === undefined ? {} : { metrics: () => o.metrics as Metrics }),
    // A node busy connecting a batch of blocks may answer a ping late; liveness is judged by
    // our own status requests instead, which drop a peer that stops answering.
    connectionMonitor: { abortConnectionOnPingFailure: false },
    connectionGater: {
      denyDialPeer: banned,
      denyInboundEncryptedConnection: banned,
      denyOutboundEncryptedConnection: banned
    },
    services: {
      identify: identify(),
      // Message ids stay gossipsub's own (author + sequence number), not content hashes: a
      // transaction orphaned by a reorg must be announceable again by the node that returned
      // it to its mempool. Receivers drop what they already hold cheaply (mempool/chain lookup).
      pubsub: gossipsub({
        allowPublishToZeroTopicPeers: true,
        ignoreDuplicatePublishError: true,
        emitSelf: false,
        fallbackToFloodsub: false,
        maxInboundDataLength: LIMITS.maxGossipBytes + 64 * 1024
      })
    }
  })
}
