// The terminal's status line and startup summary formatting (core/kernel/notifier.ts).
import t from 'tap'
import { formatHashRate, formatStatusLine, formatSummary, importedBlockLogFields, sample, summaryFromRows } from '../../core/kernel/notifier.ts'
import { minedBlockLogFields } from '../../plugins/miner/miner.ts'
import { genesisBlock } from '../../core/chain/genesis.ts'
import { devWallet, mineBlock, testParams, transfer } from '../helpers/chain.ts'
import { formatDuration } from '../../core/kernel/duration.ts'

t.test('status line: idle, synced, syncing with progress, blocks/s and ETA', async (t) => {
  const base = { height: 1204, peers: 2, hashRate: 1_234_567, mempool: 3, sync: 'synced' as const, target: 1204 }
  t.equal(formatStatusLine(base, 0.5), 'height 1,204 · peers 2 · 1.2 MH/s · mempool 3 · synced')
  t.equal(formatStatusLine({ ...base, hashRate: null, peers: 0, sync: 'idle', target: 0 }, 0), 'height 1,204 · peers 0 · mempool 3 · idle', 'no hash rate when not mining')
  t.equal(formatStatusLine({ ...base, height: 4210, target: 10_000, sync: 'syncing' }, 850),
    'height 4,210 · peers 2 · 1.2 MH/s · mempool 3 · syncing 4,210/10,000 (42%) - 850.0 blocks/s - eta 7s')
  t.match(formatStatusLine({ ...base, height: 10, target: 100, sync: 'syncing' }, 0), /eta \?$/, 'no rate yet: unknown ETA')
})

t.test('units and durations', async (t) => {
  t.equal(formatHashRate(166), '166 H/s')
  t.equal(formatHashRate(25_300), '25.3 kH/s')
  t.equal(formatDuration(59.6), '1m00s')
  t.equal(formatDuration(3725), '1h02m')
  t.equal(formatDuration(Infinity), '?')
})

t.test('summary: every URL present, absent ones left out', async (t) => {
  const rows = [
    { key: 'apiKey', label: 'API key', value: 'from LEDGER_API_KEY', order: 910, top: true },
    { key: 'p2p', label: 'p2p', value: ['/ip4/127.0.0.1/tcp/3/p2p/X', '/ip4/10.0.0.1/tcp/3/p2p/X'], order: 190 },
    { key: 'chat', label: 'chat', value: 'http://h:1/', order: 100 },
    { key: 'dashboard', label: 'dashboard', value: 'http://h:2/', order: 150 }
  ].sort((a, b) => a.order - b.order)
  const text = formatSummary('devnet', '/d', rows)
  const lines = text.split('\n')
  t.equal(lines[0], 'ledger node running on devnet')
  t.ok(lines.includes('  dashboard    http://h:2/'))
  t.ok(lines.includes('  p2p          /ip4/127.0.0.1/tcp/3/p2p/X'))
  t.ok(lines.includes('               /ip4/10.0.0.1/tcp/3/p2p/X'), 'further addresses indented under the first')
  t.ok(lines.includes('  API key      from LEDGER_API_KEY'))
  t.notOk(text.includes('explorer'), 'a plugin not loaded has no line')
  t.equal(lines[1], '  data dir     /d')
  t.equal(lines.at(-1), '  stop         Ctrl-C, or SIGTERM to this process (kill, systemd, docker stop)')
  t.same(summaryFromRows('devnet', '/d', rows), {
    network: 'devnet',
    dataDir: '/d',
    urls: { chat: 'http://h:1/', dashboard: 'http://h:2/', p2p: ['/ip4/127.0.0.1/tcp/3/p2p/X', '/ip4/10.0.0.1/tcp/3/p2p/X'] },
    apiKey: 'from LEDGER_API_KEY',
    stop: 'Ctrl-C, or SIGTERM to this process (kill, systemd, docker stop)'
  }, 'JSON logs: URLs under urls, top rows beside them')
})

t.test('status parts merge; no height, no line', async (t) => {
  t.equal(sample([{ peers: 2 }]), undefined)
  t.same(sample([{ height: 5, mempool: 1 }, { hashRate: null, ownMinerAddress: 'm' }]), { height: 5, peers: 0, hashRate: null, mempool: 1, sync: 'idle', target: 0, ownMinerAddress: 'm' })
})

t.test('imported block counts its transactions as mined block does (the coinbase too)', async (t) => {
  const params = testParams()
  const dev = devWallet()
  const g = genesisBlock(params)
  const block = mineBlock(params, { hash: g.hash, height: 0, timestamp: g.timestamp }, { txs: [transfer(params, dev, '00'.repeat(16), 1, 0)] })
  t.equal(block.transactions.length, 2, 'the coinbase and one transfer')
  t.equal(importedBlockLogFields(block).txs, 2)
  t.equal(importedBlockLogFields(block).txs, minedBlockLogFields(block, 'x').txs)
})
