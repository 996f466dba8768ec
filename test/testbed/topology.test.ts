// Topologies: each pair once, the right shape, random graphs connected and of the degree asked.
import t from 'tap'
import { hopDistances, links, parseTopology } from '../../testbed/topology.ts'
import { seededRandom } from '../helpers/random.ts'

t.test('line, ring, star and full have their shapes', async (t) => {
  const r = seededRandom(1)
  t.same(links({ kind: 'line' }, 4, r), [[0, 1], [1, 2], [2, 3]])
  t.same(links({ kind: 'ring' }, 4, r), [[0, 1], [1, 2], [2, 3], [0, 3]])
  t.same(links({ kind: 'star' }, 4, r), [[0, 1], [0, 2], [0, 3]])
  t.equal(links({ kind: 'full' }, 5, r).length, 10)
  t.same(links({ kind: 'ring' }, 2, r), [[0, 1]], 'a ring of two is one link')
})

t.test('random:d is connected, every node has at least d neighbours, no pair twice, and the seed replays it', async (t) => {
  for (const seed of [1, 2, 3]) {
    const l = links({ kind: 'random', degree: 3 }, 10, seededRandom(seed))
    const keys = l.map(([a, b]) => `${a}-${b}`)
    t.equal(new Set(keys).size, keys.length, 'no pair twice')
    for (let i = 0; i < 10; i++) t.ok(l.filter(([a, b]) => a === i || b === i).length >= 3, `node ${i} has 3 neighbours`)
    t.ok(hopDistances(l, 10, 0).every(Number.isFinite), 'connected')
    t.same(links({ kind: 'random', degree: 3 }, 10, seededRandom(seed)), l, 'same seed, same graph')
  }
})

t.test('hop distances and parsing', async (t) => {
  t.same(hopDistances([[0, 1], [1, 2], [2, 3]], 5, 1), [1, 0, 1, 2, Infinity])
  t.same(parseTopology('random:4'), { kind: 'random', degree: 4 })
  t.throws(() => parseTopology('random:0'))
  t.throws(() => parseTopology('tree'))
})
