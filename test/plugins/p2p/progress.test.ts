import t from 'tap'
import { formatSyncLine, RateMeter } from '../../../plugins/p2p/progress.ts'
import { formatDuration as formatEta } from '../../../core/kernel/duration.ts'

t.test('the sync line has the documented form', async (t) => {
  t.equal(formatSyncLine({ current: 4210, target: 10_000, blocksPerSecond: 850, peers: 2 }), 'Syncing 4,210/10,000 (42%) - 850 blocks/s - eta 7s - peers 2')
  t.equal(formatSyncLine({ current: 0, target: 500, blocksPerSecond: 0, peers: 1 }), 'Syncing 0/500 (0%) - 0 blocks/s - eta ? - peers 1')
  t.equal(formatSyncLine({ current: 12, target: 10, blocksPerSecond: 5, peers: 1 }), 'Syncing 12/12 (100%) - 5 blocks/s - eta 0s - peers 1')
})

t.test('eta reads in seconds, minutes or hours', async (t) => {
  t.equal(formatEta(6.2), '7s')
  t.equal(formatEta(192), '3m12s')
  t.equal(formatEta(3 * 3600 + 120), '3h02m')
  t.equal(formatEta(Infinity), '?')
})

t.test('the rate meter measures blocks per second between readings', async (t) => {
  let clock = 100
  const m = new RateMeter(() => clock)
  m.add(300)
  clock += 2
  t.equal(m.take(), 150)
  clock += 1
  t.equal(m.take(), 0, 'a new interval starts after each reading')
})
