// One shaped link against a local echo server: bytes arrive intact and counted each way,
// latency is added each way, and a cut closes the connection and refuses new ones.
import t from 'tap'
import type { Test } from 'tap'
import net from 'node:net'
import { ShapedLink } from '../../testbed/shaper/link.ts'
import { ShaperThread } from '../../testbed/shaper/shaper-thread.ts'
import { seededRandom } from '../helpers/random.ts'
import { waitFor } from '../helpers/wait.ts'

async function echoServer (t: Test): Promise<number> {
  const server = net.createServer((s) => { s.on('error', () => {}); s.pipe(s) })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => { server.close(() => resolve()) }))
  return (server.address() as net.AddressInfo).port
}

async function connect (port: number): Promise<net.Socket> {
  return await new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => resolve(s))
    s.once('error', reject)
  })
}

/** sends `bytes` and resolves with what came back once all of it did, and the round trip ms */
async function roundTrip (s: net.Socket, bytes: Buffer): Promise<{ back: Buffer; ms: number }> {
  const started = Date.now()
  const chunks: Buffer[] = []
  let got = 0
  return await new Promise((resolve) => {
    const onData = (c: Buffer): void => {
      chunks.push(c)
      got += c.length
      if (got >= bytes.length) { s.off('data', onData); resolve({ back: Buffer.concat(chunks), ms: Date.now() - started }) }
    }
    s.on('data', onData)
    s.write(bytes)
  })
}

t.test('bytes pass intact, are counted each way, and take at least the latency each way', async (t) => {
  const link = new ShapedLink(await echoServer(t), seededRandom(1))
  link.set({ latencyMs: 40 })
  const port = await link.listen()
  t.teardown(() => link.close())
  const s = await connect(port)
  t.teardown(() => { s.destroy() })
  const payload = Buffer.alloc(100_000, 7)
  for (let i = 0; i < payload.length; i += 997) payload[i] = i % 251
  const { back, ms } = await roundTrip(s, payload)
  t.ok(back.equals(payload), 'the echo is the payload')
  t.ok(ms >= 80, `the round trip took two one-way latencies at least (${ms} ms)`)
  await waitFor('both directions counted', () => link.counters.forward === payload.length && link.counters.backward === payload.length)
  t.equal(link.counters.connections, 1)
})

t.test('a bandwidth cap holds the transfer to its rate', async (t) => {
  const link = new ShapedLink(await echoServer(t), seededRandom(2))
  link.set({ bandwidthBps: 200_000 })
  const port = await link.listen()
  t.teardown(() => link.close())
  const s = await connect(port)
  t.teardown(() => { s.destroy() })
  // 60 kB each way through 200 kB/s: at least 0.3 s (one direction's serialisation bounds it)
  const { back, ms } = await roundTrip(s, Buffer.alloc(60_000, 1))
  t.equal(back.length, 60_000)
  t.ok(ms >= 290, `the cap slowed it (${ms} ms)`)
})

t.test('a cut closes open connections and refuses new ones; healing lets them in again', async (t) => {
  const link = new ShapedLink(await echoServer(t), seededRandom(3))
  const port = await link.listen()
  t.teardown(() => link.close())
  const s = await connect(port)
  const closed = new Promise<void>((resolve) => s.once('close', () => resolve()))
  s.on('error', () => {})
  link.set({ cut: true })
  await closed
  t.pass('the open connection was closed')
  const refused = await connect(port)
  refused.on('error', () => {})
  await new Promise<void>((resolve) => refused.once('close', () => resolve()))
  t.pass('a new connection is closed at once')
  link.set({ cut: false })
  const again = await connect(port)
  t.teardown(() => { again.destroy() })
  const { back } = await roundTrip(again, Buffer.from('hello'))
  t.equal(back.toString(), 'hello', 'after the heal bytes pass again')
})

t.test('the links on their own thread: delayed, counted per node, cut by partition and healed', async (t) => {
  const shaper = new ShaperThread()
  t.teardown(() => shaper.close())
  const echo = await echoServer(t)
  // nodes 0 - 1 - 2: node 0 dials 1 (this link is the echo's), node 1 dials 2
  const port01 = await shaper.add([0, 1], echo, 11, { latencyMs: 30 })
  await shaper.add([1, 2], echo, 12, { latencyMs: 30 })
  const s = await connect(port01)
  t.teardown(() => { s.destroy() })
  const { back, ms } = await roundTrip(s, Buffer.alloc(5000, 3))
  t.equal(back.length, 5000)
  t.ok(ms >= 60, `two one-way latencies at least (${ms} ms)`)
  await waitFor('both directions counted', async () => (await shaper.bytesSent(0)) === 5000 && (await shaper.bytesSent(1)) === 5000)
  t.equal(await shaper.bytesSent(2), 0, 'node 2 sent nothing')
  const closed = new Promise<void>((resolve) => s.once('close', () => resolve()))
  s.on('error', () => {})
  t.equal(await shaper.partition([[0], [1, 2]]), 1, 'only the link across the groups is cut')
  await closed
  t.same((await shaper.view()).map((v) => v.settings.cut), [true, false])
  t.equal(await shaper.heal(), 2)
  const again = await connect(port01)
  t.teardown(() => { again.destroy() })
  t.equal((await roundTrip(again, Buffer.from('hi'))).back.toString(), 'hi', 'healed')
  const lag = await shaper.lag()
  t.ok(lag.p50 >= 0 && lag.p99 >= lag.p50 && lag.max >= lag.p99, 'its own event-loop lag, in order')
  await shaper.resetLag()
  t.ok((await shaper.lag()).max <= lag.max, 'counted again from the reset')
})
