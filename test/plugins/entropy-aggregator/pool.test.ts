import t from 'tap'
import { EntropyPool } from '../../../plugins/entropy-aggregator/pool.ts'

const seq = (from: number, n: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (from + i) & 0xff)

t.test('taking consumes: the same bytes are never returned twice', async (t) => {
  const pool = new EntropyPool(100)
  pool.add(seq(0, 60), ['self-hosted'])
  const first = pool.take(25)
  const second = pool.take(25)
  t.same([...first.bytes], [...seq(0, 25)])
  t.same([...second.bytes], [...seq(25, 25)])
  t.equal(pool.available, 10)
  t.throws(() => pool.take(11), /pool holds 10 bytes, asked for 11/)
  t.equal(pool.available, 10, 'a refused take consumes nothing')
  t.same([...pool.take(10).bytes], [...seq(50, 10)])
  t.equal(pool.available, 0)
  t.throws(() => pool.take(1), /pool holds 0 bytes/)
  t.throws(() => pool.take(0), /positive integer/)
})

t.test('capacity caps what a batch adds; the source buffer is wiped', async (t) => {
  const pool = new EntropyPool(64)
  const batch = seq(1, 48)
  t.equal(pool.add(batch, ['a']), 48)
  t.same([...batch], new Array(48).fill(0), 'the caller\'s buffer is zeroed')
  t.equal(pool.add(seq(100, 48), ['b']), 16, 'only the room left is kept')
  t.equal(pool.available, 64)
  t.equal(pool.room, 0)
  t.equal(pool.add(seq(0, 10), ['c']), 0, 'a full pool keeps nothing')
  t.equal(pool.available, 64)
})

t.test('a draw names the sources of every batch it spans', async (t) => {
  const pool = new EntropyPool(1000)
  pool.add(seq(0, 10), ['self-hosted', 'beacon-default'], { 'beacon-default': 7 })
  pool.add(seq(10, 10), ['self-hosted'])
  const inFirst = pool.take(10)
  t.same(inFirst.contributors, ['beacon-default', 'self-hosted'])
  t.same(inFirst.rounds, { 'beacon-default': 7 })
  const inSecond = pool.take(5)
  t.same(inSecond.contributors, ['self-hosted'], 'the beacon did not contribute to these bytes')
  pool.add(seq(20, 10), ['beacon-fastnet', 'self-hosted'], { 'beacon-fastnet': 9 })
  const spanning = pool.take(10)
  t.same(spanning.contributors, ['beacon-fastnet', 'self-hosted'])
  t.same([...spanning.bytes], [...seq(15, 10)])
})

t.test('clear drops everything', async (t) => {
  const pool = new EntropyPool(10)
  pool.add(seq(0, 10), ['a'])
  pool.clear()
  t.equal(pool.available, 0)
  t.throws(() => new EntropyPool(0), /positive integer/)
})
