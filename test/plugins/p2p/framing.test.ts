import t from 'tap'
import { frame, readFrames } from '../../../plugins/p2p/framing.ts'
import { WireError } from '../../../plugins/p2p/protocol.ts'

async function * chunks (...parts: Uint8Array[]): AsyncGenerator<Uint8Array> { for (const p of parts) yield p }
async function collect (src: AsyncIterable<Uint8Array>): Promise<string[]> {
  const out: string[] = []
  for await (const f of src) out.push(Buffer.from(f).toString())
  return out
}

t.test('frames survive any chunking of the byte stream', async (t) => {
  const bytes = Buffer.concat([frame(Buffer.from('hello')), frame(Buffer.alloc(0)), frame(Buffer.from('x'.repeat(1000)))])
  t.same(await collect(readFrames(chunks(bytes), 4096)), ['hello', '', 'x'.repeat(1000)], 'one chunk')
  const singles = [...bytes].map((b) => Uint8Array.of(b))
  t.same(await collect(readFrames(chunks(...singles), 4096)), ['hello', '', 'x'.repeat(1000)], 'one byte per chunk')
})

t.test('an oversized frame is refused from its length prefix alone', async (t) => {
  const prefix = new Uint8Array(4)
  new DataView(prefix.buffer).setUint32(0, 10_000_000)
  await t.rejects(collect(readFrames(chunks(prefix), 1024)), WireError)
})

t.test('a stream that ends inside a frame is an error', async (t) => {
  const whole = frame(Buffer.from('truncated'))
  await t.rejects(collect(readFrames(chunks(whole.subarray(0, 7)), 1024)), { message: /ended inside a frame/ })
  await t.rejects(collect(readFrames(chunks(Uint8Array.of(0, 0)), 1024)), WireError)
})
