// The stream's building blocks: the per-connection queue (64, silent drop), heartbeats,
// per-type dedupe, event ids and Last-Event-ID replay, filters.
import t from 'tap'
import { SseConnection, HEARTBEAT_FRAME } from '../../../plugins/stream/connection.ts'
import type { SseSink } from '../../../plugins/stream/connection.ts'
import { EventHub } from '../../../plugins/stream/hub.ts'
import { MATCH_ALL, parseFilter } from '../../../plugins/stream/filter.ts'
import { touched } from '../../../plugins/stream/events.ts'
import type { EventDraft } from '../../../plugins/stream/events.ts'
import { vmAddressOf } from '../../../core/chain/address.ts'
import { HttpError } from '../../../core/kernel/errors.ts'

/** a socket that accepts `capacity` writes, then pushes back until drained */
class FakeSink implements SseSink {
  written: string[] = []
  capacity: number
  ended = false
  #drain: Array<() => void> = []
  constructor (capacity: number) { this.capacity = capacity }
  write (chunk: string): boolean {
    this.written.push(chunk)
    return this.written.length < this.capacity
  }

  once (_event: 'drain', listener: () => void): this { this.#drain.push(listener); return this }
  end (): void { this.ended = true }
  drain (more: number): void {
    this.capacity = this.written.length + more
    const ls = this.#drain.splice(0)
    for (const l of ls) l()
  }
}

const ADDR_A = 'a'.repeat(32)
const ADDR_B = 'b'.repeat(32)

function draft (type: EventDraft['type'], key: string, addresses: string[] = []): EventDraft {
  return { type, key, addresses: touched(...addresses), payload: { type, key } }
}

function hub (opts: Partial<ConstructorParameters<typeof EventHub>[0]> = {}): EventHub {
  const h = new EventHub({ dedupeWindow: 100, replaySize: 50, heartbeatMs: 3_600_000, sessionActive: () => true, firstId: 1, ...opts })
  t.teardown(() => h.close())
  return h
}

t.test('a connection queues at most 64 events while the socket pushes back and drops the rest', async (t) => {
  const sink = new FakeSink(1)
  const h = hub()
  const conn = new SseConnection(sink, MATCH_ALL, 'session', 64)
  h.attach(conn, null)
  for (let i = 0; i < 200; i++) h.publish(draft('tx', `t${i}`))
  t.equal(sink.written.length, 1, 'the first write filled the socket')
  t.equal(conn.queued, 64, 'queue capped at 64')
  t.equal(conn.dropped, 135, 'the rest dropped silently')
  t.equal(h.stats().dropped, 135)
  conn.heartbeat()
  t.equal(sink.written.length, 1, 'no heartbeat while events wait')
  sink.drain(1000)
  t.equal(conn.queued, 0)
  t.equal(sink.written.length, 65, 'the queued events were delivered after drain')
  const order = sink.written.map((f) => JSON.parse(f.split('\n')[1]!.slice(6)).key as string)
  t.same(order, Array.from({ length: 65 }, (_, i) => `t${i}`), 'in order, oldest first; dropped ones are the newest')
  h.publish(draft('tx', 'after'))
  t.equal(sink.written.length, 66, 'writes go straight through again')
  conn.heartbeat()
  t.equal(sink.written.at(-1), HEARTBEAT_FRAME)
})

t.test('frames carry an id line and one data line; ids grow', async (t) => {
  const sink = new FakeSink(1000)
  const h = hub({ firstId: 500 })
  h.attach(new SseConnection(sink, MATCH_ALL, 's', 64), null)
  h.publish(draft('block', '1'))
  h.publish(draft('block', '2'))
  t.same(sink.written, ['id: 500\ndata: {"type":"block","key":"1"}\n\n', 'id: 501\ndata: {"type":"block","key":"2"}\n\n'])
  t.equal(h.stats().lastId, 501)
})

t.test('dedupe per type; the window is bounded', async (t) => {
  const h = hub({ dedupeWindow: 3 })
  t.ok(h.publish(draft('block', '7')))
  t.equal(h.publish(draft('block', '7')), null, 'same height again: dropped')
  t.ok(h.publish(draft('tx', '7')), 'another type has its own window')
  t.ok(h.publish(draft('message', 'abc:pending')))
  t.ok(h.publish(draft('message', 'abc:confirmed')), 'a message is announced pending and confirmed')
  t.equal(h.publish(draft('message', 'abc:confirmed')), null)
  for (const k of ['8', '9', '10']) h.publish(draft('block', k))
  t.ok(h.publish(draft('block', '7')), 'forgotten once it left the window')
  t.equal(h.stats().deduplicated, 2)
})

t.test('Last-Event-ID replays held events after that id, filtered', async (t) => {
  const h = hub({ replaySize: 5 })
  const ids: number[] = []
  for (let i = 0; i < 8; i++) ids.push(h.publish(draft(i % 2 === 0 ? 'tx' : 'block', `k${i}`, [ADDR_A]))!.id)
  const all = new FakeSink(1000)
  h.attach(new SseConnection(all, MATCH_ALL, 's', 64), ids[4]!)
  t.same(all.written.map((f) => Number(/^id: (\d+)/.exec(f)?.[1])), ids.slice(5), 'only what came after')
  const old = new FakeSink(1000)
  h.attach(new SseConnection(old, MATCH_ALL, 's', 64), 0)
  t.equal(old.written.length, 5, 'an id older than the ring gets what the ring holds')
  const blocks = new FakeSink(1000)
  h.attach(new SseConnection(blocks, parseFilter({ types: 'block' }), 's', 64), 0)
  t.equal(blocks.written.length, 3, 'replay respects the filter (3 of the 5 held are blocks)')
  const fresh = new FakeSink(1000)
  h.attach(new SseConnection(fresh, MATCH_ALL, 's', 64), null)
  t.equal(fresh.written.length, 0, 'no Last-Event-ID, no replay')
})

t.test('filters: types (unknown ignored) AND address (either form)', async (t) => {
  t.same(parseFilter({}), MATCH_ALL)
  t.same(parseFilter({ types: 'nonsense' }), MATCH_ALL, 'only unknown values: no type filter')
  t.same([...(parseFilter({ types: 'Block, tx,bogus' }).types ?? [])].sort(), ['block', 'tx'])
  const refused = ((): unknown => { try { return parseFilter({ address: 'xyz' }) } catch (err) { return err } })()
  t.ok(refused instanceof HttpError && refused.statusCode === 400, 'a malformed address is a 400')
  t.equal(parseFilter({ address: `0X${ADDR_A.toUpperCase()}` }).address, ADDR_A)

  const h = hub()
  const sinks = {
    a: new FakeSink(1000), vm: new FakeSink(1000), blocksOfA: new FakeSink(1000), b: new FakeSink(1000)
  }
  h.attach(new SseConnection(sinks.a, parseFilter({ address: ADDR_A }), 's', 64), null)
  h.attach(new SseConnection(sinks.vm, parseFilter({ address: `0x${vmAddressOf(ADDR_A)}` }), 's', 64), null)
  h.attach(new SseConnection(sinks.blocksOfA, parseFilter({ types: 'block', address: ADDR_A }), 's', 64), null)
  h.attach(new SseConnection(sinks.b, parseFilter({ address: ADDR_B }), 's', 64), null)
  h.publish(draft('tx', 't1', [ADDR_A, ADDR_B]))
  h.publish(draft('block', 'b1', [ADDR_A]))
  h.publish(draft('message', 'm1', [ADDR_B]))
  t.equal(sinks.a.written.length, 2)
  t.equal(sinks.vm.written.length, 2, 'the VM form matches the same events')
  t.equal(sinks.blocksOfA.written.length, 1, 'types AND address')
  t.equal(sinks.b.written.length, 2)
})

t.test('heartbeats on the interval; a connection whose session ended is closed', async (t) => {
  let active = true
  const h = hub({ heartbeatMs: 20, sessionActive: () => active })
  const sink = new FakeSink(1000)
  h.attach(new SseConnection(sink, MATCH_ALL, 's', 64), null)
  await new Promise<void>((resolve, reject) => {
    const until = setTimeout(() => reject(new Error('no heartbeat within 2 s')), 2000)
    const poll = setInterval(() => { if (sink.written.includes(HEARTBEAT_FRAME)) { clearInterval(poll); clearTimeout(until); resolve() } }, 5)
  })
  t.pass('heartbeat written')
  active = false
  await new Promise<void>((resolve, reject) => {
    const until = setTimeout(() => reject(new Error('not closed within 2 s')), 2000)
    const poll = setInterval(() => { if (sink.ended) { clearInterval(poll); clearTimeout(until); resolve() } }, 5)
  })
  t.equal(h.size, 0, 'removed from the hub')
})
