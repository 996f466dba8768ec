// `ledger status` / `ledger peers` text: what an operator reads from a shell (the e2e test in
// test/e2e/wallet-cli.test.ts drives both against a real node).
import t from 'tap'
import { formatPeers, formatStatus } from '../../../tools/node/node-look.ts'

const status = { node_running: true, chain_height: 1204, peer_count: 2, mining_active: true, qrng_reachable: true, simulate: false, sync_state: 'synced' as const }
const mining = { enabled: true, running: true, blocks_mined: 7, miner_address: 'a'.repeat(32), hash_rate: 1234.4, halted_reason: null }

t.test('status: mining on, halted with its reason, off', async (t) => {
  t.equal(formatStatus(status, mining, 3.2), 'height   1204 (tip 3 s old)\nsync     synced\npeers    2\nmining   on, 1234 H/s, 7 mined\nentropy  reachable')
  t.match(formatStatus({ ...status, qrng_reachable: false }, { ...mining, running: false, halted_reason: 'waiting for peers before mining (initial sync)' }, 0),
    /mining {3}halted \(waiting for peers before mining \(initial sync\)\)\nentropy {2}unreachable$/)
  t.match(formatStatus(status, { ...mining, enabled: false }, 0), /mining {3}off/)
})

t.test('peers: one aligned row each, ids shortened', async (t) => {
  const now = 1_000
  const text = formatPeers({
    peer_count: 2,
    sync_state: 'syncing',
    peers: [
      { peer_id: '12D3KooWAbCdEfGhIjKlMnOpQrStUvWxYz', address: '10.0.0.5:18333', version: '0.1.0/3', best_height: 500, connected_at: 940 },
      { peer_id: 'short', address: '[::1]:4001', version: '0.1.0/3', best_height: 12, connected_at: 999 }
    ]
  }, now)
  const lines = text.split('\n')
  t.equal(lines[0], 'PEER             ADDRESS         HEIGHT  VERSION  CONNECTED')
  t.equal(lines[1], '12D3KooW…UvWxYz  10.0.0.5:18333  500     0.1.0/3  60 s')
  t.equal(lines[2], 'short            [::1]:4001      12      0.1.0/3  1 s')
  t.equal(lines[3], '2 peers, sync syncing')
  t.equal(formatPeers({ peer_count: 0, sync_state: 'idle', peers: [] }), 'no peers (sync idle)')
})
