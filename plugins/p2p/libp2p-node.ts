// The libp2p stack of a ledger node: TCP, noise, yamux, identify and gossipsub, with a
// connection gater that keeps banned peers out and hands inbound slots out (connection-slots.ts).
import { createLibp2p } from 'libp2p'
import type { Libp2p, Metrics, PeerId, PrivateKey } from '@libp2p/interface'
import { tcp } from '@libp2p/tcp'
import type { TCPSocketOptions } from '@libp2p/tcp'
import { noise } from '@chainsafe/libp2p-noise'
import { yamux } from '@chainsafe/libp2p-yamux'
import { identify } from '@libp2p/identify'
import type { Identify } from '@libp2p/identify'
import { gossipsub } from '@libp2p/gossipsub'
import type { GossipSub } from '@libp2p/gossipsub'
import { LIMITS } from './protocol.ts'
import { ledgerNoiseCrypto } from './noise-crypto.ts'
import { INBOUND_UPGRADE_TIMEOUT_MS, MAX_PENDING_INBOUND } from './connection-slots.ts'
import type { ConnectionSlots } from './connection-slots.ts'

export type LedgerLibp2p = Libp2p<{ identify: Identify; pubsub: GossipSub }>

export interface Libp2pNodeOptions {
  privateKey: PrivateKey
  /** listen multiaddrs, e.g. /ip4/0.0.0.0/tcp/18333 */
  listen: string[]
  maxConnections: number
  isBanned(peerId: string): boolean
  /** libp2p's metrics component (the traffic meter), if any */
  metrics?: Metrics
  /** inbound slot limits and eviction; without it only bans are checked (test peers) */
  slots?: ConnectionSlots
  /** the local address outbound sockets bind (tests and test beds standing for distinct hosts on one machine) */
  dialFrom?: string
}

export async function createLibp2pNode (o: Libp2pNodeOptions): Promise<LedgerLibp2p> {
  const banned = (peer: PeerId): boolean => o.isBanned(peer.toString())
  return await createLibp2p({
    privateKey: o.privateKey,
    addresses: { listen: o.listen },
    // net.connect takes localAddress; libp2p's type names only a subset of its options
    transports: [tcp(o.dialFrom === undefined ? {} : { dialOpts: { localAddress: o.dialFrom } as TCPSocketOptions })],
    connectionEncrypters: [noise({ crypto: ledgerNoiseCrypto })],
    streamMuxers: [yamux()],
    connectionManager: {
      maxConnections: o.maxConnections,
      // a budget of pending upgrades wide enough that the per-address and per-netgroup caps
      // (ConnectionSlots) bite first, with a short deadline to finish noise and yamux
      maxIncomingPendingConnections: MAX_PENDING_INBOUND,
      inboundUpgradeTimeout: INBOUND_UPGRADE_TIMEOUT_MS
    },
    ...(o.metrics === undefined ? {} : { metrics: () => o.metrics as Metrics }),
    // A node busy connecting a batch of blocks may answer a ping late; liveness is judged by
    // our own status requests instead, which drop a peer that stops answering.
    connectionMonitor: { abortConnectionOnPingFailure: false },
    connectionGater: {
      denyDialPeer: banned,
      denyOutboundEncryptedConnection: banned,
      denyInboundConnection: (maConn) => o.slots?.denyInboundConnection(maConn) ?? false,
      denyInboundEncryptedConnection: (peer) => o.slots?.denyInboundEncryptedConnection(peer.toString()) ?? banned(peer),
      denyInboundUpgradedConnection: async (peer, maConn) => await o.slots?.denyInboundUpgradedConnection(peer.toString(), maConn) ?? false
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
