// Node-level views of the dashboard (SPEC 2.2) from the optional miner, entropy and peers
// services. A service that is not loaded reports its honest "absent" value: not mining, entropy
// not reachable, no peers, sync state idle. This node never simulates.
import type { EntropyProvider, MinerService, NodeInfo, PeerInfo, PeerService, SyncState } from '../../core/kernel/services.ts'
import { nodeVersion } from '../../core/kernel/version.ts'
import type { NetworkParams } from '../../core/chain/params.ts'
import { trustedBeacons } from '../../config/entropy-sources.ts'
import { providerEvidence } from '../../core/chain/entropy-evidence.ts'

export interface OptionalServices {
  miner(): MinerService | undefined
  entropy(): EntropyProvider | undefined
  peers(): PeerService | undefined
}

export function syncState (svc: OptionalServices): SyncState {
  return svc.peers()?.syncState() ?? 'idle'
}

export function peerList (svc: OptionalServices): PeerInfo[] {
  return svc.peers()?.peers() ?? []
}

export function miningActive (svc: OptionalServices): boolean {
  return svc.miner()?.status().running ?? false
}

export function statusView (node: NodeInfo, svc: OptionalServices, chainHeight: number) {
  return {
    node_running: node.status() === 'running',
    chain_height: chainHeight,
    peer_count: peerList(svc).length,
    mining_active: miningActive(svc),
    qrng_reachable: svc.entropy()?.status().reachable ?? false,
    simulate: false,
    sync_state: syncState(svc)
  }
}

export function nodeView (node: NodeInfo, params: NetworkParams, nodeId: string) {
  const now = Date.now() / 1000
  return {
    node_id: nodeId,
    version: nodeVersion(params),
    network: params.name,
    status: node.status(),
    started_at: node.startedAt,
    uptime_seconds: Math.max(0, now - node.startedAt),
    data_dir: node.dataDir
  }
}

export function miningView (svc: OptionalServices) {
  const miner = svc.miner()
  if (miner === undefined) {
    return { enabled: false, running: false, blocks_mined: 0, miner_address: '', simulation_mode: false, qrng_source: '', hash_rate: 0, halted_reason: 'no miner plugin loaded' }
  }
  const s = miner.status()
  return {
    enabled: s.enabled,
    running: s.running,
    blocks_mined: s.blocks_mined,
    miner_address: s.miner_address,
    simulation_mode: false,
    qrng_source: s.qrng_source,
    hash_rate: s.hash_rate,
    halted_reason: s.halted_reason
  }
}

/** @param params the chain's, whose trusted beacons (with their pinned keys) are published */
export function qrngView (svc: OptionalServices, params: NetworkParams) {
  const beacons = trustedBeacons(params.trustedSources, params.sourceRegistry)
  const entropy = svc.entropy()
  if (entropy === undefined) {
    return { reachable: false, host: '', port: 0, last_fetch_at: null, pool_available_bytes: 0, source: null, reason: 'no entropy provider loaded', evidence: null, beacons }
  }
  const s = entropy.status()
  return {
    beacons,
    reachable: s.reachable,
    host: s.host,
    port: s.port,
    last_fetch_at: s.last_fetch_at,
    pool_available_bytes: s.pool_available_bytes,
    source: s.source,
    reason: s.reason,
    evidence: providerEvidence(s.reachable, s.source)
  }
}
