// The shaper's clock: latency, jitter bounds, bandwidth serialisation, in-order delivery.
import t from 'tap'
import { DirectionClock, OPEN_LINK, parseBandwidth } from '../../testbed/shaper/schedule.ts'
import { seededRandom } from '../helpers/random.ts'

t.test('latency alone delays every chunk by exactly the latency', async (t) => {
  const c = new DirectionClock()
  const s = { ...OPEN_LINK, latencyMs: 50 }
  t.equal(c.deliver(1000, 100, s, seededRandom(1)), 1050)
  t.equal(c.deliver(1010, 100, s, seededRandom(1)), 1060)
})

t.test('a bandwidth cap serialises chunks one after another', async (t) => {
  const c = new DirectionClock()
  const s = { ...OPEN_LINK, bandwidthBps: 1000 }
  // 500 bytes at 1000 B/s = 500 ms on the wire; the second waits for the first
  t.equal(c.deliver(0, 500, s, seededRandom(1)), 500)
  t.equal(c.deliver(0, 500, s, seededRandom(1)), 1000)
  // an idle link starts from now again
  t.equal(c.deliver(5000, 100, s, seededRandom(1)), 5100)
})

t.test('jitter stays within ± jitter and never reorders chunks', async (t) => {
  const c = new DirectionClock()
  const s = { ...OPEN_LINK, latencyMs: 100, jitterMs: 30 }
  const random = seededRandom(7)
  let last = -Infinity
  const delays: number[] = []
  for (let i = 0; i < 500; i++) {
    const now = i * 5
    const at = c.deliver(now, 10, s, random)
    t.ok(at >= last, 'in order')
    last = at
    delays.push(at - now)
  }
  t.ok(Math.min(...delays) >= 70, `no delay below latency - jitter (min ${Math.min(...delays)})`)
  t.ok(delays.some((d) => d < 95) && delays.some((d) => d > 105), 'the delays do spread')
})

t.test('bandwidths parse in bits and bytes per second', async (t) => {
  t.equal(parseBandwidth('8mbit'), 1_000_000)
  t.equal(parseBandwidth('500kbit'), 62_500)
  t.equal(parseBandwidth('2MB'), 2_000_000)
  t.equal(parseBandwidth('64kB/s'), 64_000)
  t.equal(parseBandwidth('1234'), 1234)
  t.throws(() => parseBandwidth('fast'), /not like/)
  t.throws(() => parseBandwidth('0mbit'), /above zero/)
})
