// Splitting a gossipsub RPC frame into its messages (by topic) and control, checked against
// frames made by gossipsub's own encoder.
import t from 'tap'
import { RPC } from '@libp2p/gossipsub/message'
import { splitRpcFrame } from '../../../plugins/p2p/gossip-bytes.ts'
import type { SentChunk } from '../../../plugins/p2p/gossip-bytes.ts'
import { negotiationBytes, SentBytes } from '../../../plugins/p2p/sent-bytes.ts'
import { protocolId, topics } from '../../../plugins/p2p/protocol.ts'
import { params } from './helpers.ts'
import { seededRandom } from '../../helpers/random.ts'

const random = seededRandom(28)
const bytes = (n: number): Uint8Array => Uint8Array.from({ length: n }, () => Math.floor(random() * 256))

function varint (n: number): Uint8Array {
  const out: number[] = []
  while (n >= 0x80) { out.push((n & 0x7f) | 0x80); n = Math.floor(n / 0x80) }
  out.push(n)
  return Uint8Array.from(out)
}

/** what gossipsub hands a stream: the RPC, length-prefixed (as a Uint8Array or a two-piece list) */
function frame (rpc: RPC): { whole: Uint8Array; list: SentChunk; prefix: number } {
  const body = RPC.encode(rpc)
  const prefix = varint(body.length)
  const whole = new Uint8Array(prefix.length + body.length)
  whole.set(prefix)
  whole.set(body, prefix.length)
  const list = {
    byteLength: whole.length,
    get: (i: number) => i < prefix.length ? prefix[i] as number : body[i - prefix.length] as number,
    subarray: (start = 0, end = whole.length) => whole.subarray(start, end)
  }
  return { whole, list, prefix: prefix.length }
}

const message = (topic: string, data: Uint8Array): RPC.Message => ({ from: bytes(38), data, seqno: bytes(8), topic, signature: bytes(64) })
/** the bytes one message takes inside an RPC: its field tag, length and body */
const messageBytes = (m: RPC.Message): number => RPC.encode({ subscriptions: [], messages: [m] }).length

t.test('a frame splits into its messages by topic and its control, adding up to the frame', async (t) => {
  const tp = topics(params)
  const compact = message(tp.compact, bytes(3000))
  const tx = message(tp.txs, bytes(200))
  const control: RPC.ControlMessage = { ihave: [{ topicID: tp.compact, messageIDs: [bytes(20)] }], iwant: [], graft: [{ topicID: tp.txs }], prune: [], idontwant: [] }
  const rpc: RPC = { subscriptions: [{ subscribe: true, topic: tp.blocks }], messages: [compact, tx], control }
  for (const [form, chunk] of Object.entries(frame(rpc)).filter(([k]) => k !== 'prefix') as Array<[string, SentChunk]>) {
    const parts = splitRpcFrame(chunk)
    t.ok(parts !== null, `${form}: parsed`)
    if (parts === null) continue
    t.equal(parts.reduce((n, p) => n + p.bytes, 0), chunk.byteLength, `${form}: the parts add up to the frame`)
    const msgs = parts.filter((p) => p.kind === 'message')
    t.same(msgs.map((p) => p.kind === 'message' ? p.topic : ''), [tp.compact, tp.txs], `${form}: both messages, in order, by topic`)
    t.equal(msgs[0]?.bytes, messageBytes(compact), `${form}: the compact message's bytes`)
    t.equal(msgs[1]?.bytes, messageBytes(tx))
    const m = msgs[0]
    if (m?.kind === 'message') t.same(chunk.subarray(m.dataStart, m.dataEnd), compact.data, `${form}: where its payload lies`)
  }
})

t.test('the length prefix goes to the first part; what is not one frame is refused', async (t) => {
  const m = message(topics(params).compact, bytes(500))
  const f = frame({ subscriptions: [], messages: [m] })
  const parts = splitRpcFrame(f.whole)
  t.same(parts?.map((p) => p.bytes), [messageBytes(m) + f.prefix])
  t.equal(splitRpcFrame(f.whole.subarray(0, f.whole.length - 1)), null, 'cut short')
  const two = new Uint8Array(f.whole.length * 2)
  two.set(f.whole)
  two.set(f.whole, f.whole.length)
  t.equal(splitRpcFrame(two), null, 'two frames in one chunk')
  t.equal(splitRpcFrame(new Uint8Array([0])), null, 'an empty RPC')
  t.equal(splitRpcFrame(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])), null, 'a runaway varint')
})

t.test('sent bytes by protocol label, gossip by topic, and per block', async (t) => {
  const tp = topics(params)
  const hashes = new Map<number, string>([[7, 'aa'.repeat(64)]])
  const sent = new SentBytes({ params, announcedBlock: (data) => hashes.get(data[0] as number), maxBlocks: 2 })
  const txinv = protocolId(params, 'txinv')
  sent.negotiated(txinv)
  sent.sent(txinv, bytes(100))
  sent.negotiated('/meshsub/1.2.0')
  const announcement = message(tp.compact, Uint8Array.of(7, ...bytes(300)))
  const f = frame({ subscriptions: [], messages: [announcement], control: { ihave: [], iwant: [], graft: [{ topicID: tp.compact }], prune: [], idontwant: [] } })
  sent.sent('/meshsub/1.2.0', f.whole)
  sent.sent('/meshsub/1.2.0', bytes(10)) // no frame: control
  sent.sent('/ipfs/ping/1.0.0', bytes(32))
  sent.sent('/some/other/1', bytes(5))
  const snap = sent.snapshot()
  const announced = messageBytes(announcement) + f.prefix
  t.same(snap.protocols, {
    txinv: negotiationBytes(txinv) + 100,
    'gossip/control': negotiationBytes('/meshsub/1.2.0') + (f.whole.length - announced) + 10,
    'gossip/cmpctblock': announced,
    ping: 32,
    other: 5
  })
  t.same(snap.blocks, { ['aa'.repeat(64)]: announced }, 'the announcement charged to its block')
  t.equal(negotiationBytes('/meshsub/1.2.0'), 20 + 16, 'multistream header and protocol line, each length-prefixed')

  const blocktxn = { hash: 'bb'.repeat(64), indexes: [1, 2] }
  sent.requestSent('blocktxn', blocktxn, 90)
  sent.responseSent('blocktxn', blocktxn, [1004, 2004])
  const nego = negotiationBytes(protocolId(params, 'blocktxn'))
  t.equal(sent.snapshot().blocks['bb'.repeat(64)], 90 + 1004 + 2004 + 2 * nego, 'request and answer, each with its negotiation')
  const blocks = { hashes: ['cc'.repeat(64), 'dd'.repeat(64)] }
  sent.requestSent('blocks', blocks, 301)
  sent.responseSent('status', {}, [50])
  const s = sent.snapshot().blocks
  t.equal(Object.keys(s).length, 2, 'only the most recent blocks are kept')
  const total = 301 + negotiationBytes(protocolId(params, 'blocks'))
  t.equal((s['cc'.repeat(64)] ?? 0) + (s['dd'.repeat(64)] ?? 0), total, 'a request naming two blocks is shared between them')
})
