import t from 'tap'
import { benchParams, removeDir } from '../../bench/lib/chain-fixture.ts'
import { buildBlocks, connectChain } from '../../bench/lib/chain-builder.ts'
import { verifiedBeacons } from '../../core/entropy/beacon-cache.ts'

t.test('the connect anchor verifies every beacon round as a fresh node would, whatever the process verified before', async (t) => {
  const params = benchParams()
  const { blocks } = buildBlocks(params, { blocks: 12, txPerBlock: 4 }, () => {})
  const first = await connectChain(params, blocks, 'chain-builder-test')
  removeDir(first.dir)
  const rounds = verifiedBeacons.size
  t.ok(rounds > 0, `${rounds} rounds verified`)
  const sentinel = 'a verdict from before the run'
  verifiedBeacons.add(sentinel)
  const second = await connectChain(params, blocks, 'chain-builder-test')
  removeDir(second.dir)
  t.notOk(verifiedBeacons.has(sentinel), 'the cache was cleared before the run')
  t.equal(verifiedBeacons.size, rounds, 'and every round verified again')
  t.ok(second.seconds > 0)
})
