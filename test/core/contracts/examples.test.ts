// The bundled examples deploy and every method does what its description says, on both cores.
import t from 'tap'
import crypto from 'node:crypto'
import { EXAMPLES, getExample } from '../../../core/contracts/index.ts'
import { Deployed, DEPLOYER, ALICE, BOB, CAROL } from './harness.ts'

const topic = (signature: string): string => crypto.hash('sha3-256', signature, 'hex')
const word = (hex: string): string => hex.padStart(64, '0')
const source = (id: string): string => (getExample(id) as { source: string }).source

t.test('three examples with the ids the playground serves', async (t) => {
  t.strictSame(EXAMPLES.map((e) => e.id), ['counter', 'guestbook', 'multisig'])
  for (const e of EXAMPLES) {
    t.strictSame(Object.keys(e).sort(), ['description', 'id', 'source', 'title'])
    for (const v of Object.values(e)) t.type(v, 'string')
  }
  t.equal(getExample('nope'), undefined)
})

for (const core of ['wasm', 'js'] as const) {
  t.test(`${core}: counter`, async (t) => {
    const c = new Deployed(source('counter'), core)
    t.strictSame(c.compiled.abi.methods.map((m) => [m.name, m.selector]), [['increment', 1], ['get', 2], ['reset', 3]])
    t.equal(c.get('get'), '0')
    const inc = c.call('increment', [5])
    t.equal(inc.value, '5')
    t.strictSame(inc.receipt.logs, [{ address: c.address, topics: [topic('Incremented(uint,uint)'), word('5')], data: word('5') }])
    t.equal(c.get('increment', [7], { from: ALICE }), '12')
    t.equal(c.reason('increment', [0]), 'increment must be positive')
    t.equal(c.reason('reset', [], { from: ALICE }), 'only the owner can reset')
    const reset = c.call('reset')
    t.equal(reset.receipt.success, true)
    t.strictSame(reset.receipt.logs[0]?.topics, [topic('Reset(address,uint)'), word(DEPLOYER)])
    t.equal(reset.receipt.logs[0]?.data, word('c'))
    t.equal(c.get('get'), '0')
  })

  t.test(`${core}: guestbook`, async (t) => {
    const g = new Deployed(source('guestbook'), core)
    const signed = g.call('sign', ['hello, chain'], { from: ALICE })
    t.equal(signed.value, '0')
    const messageWord = Buffer.from('hello, chain').toString('hex').padEnd(64, '0')
    t.strictSame(signed.receipt.logs, [{ address: g.address, topics: [topic('Signed(address,uint,bytes32)'), word(ALICE), word('0')], data: messageWord }])
    t.equal(g.get('sign', ['0x' + 'ab'.repeat(32)], { from: BOB }), '1')
    t.equal(g.get('sign', ['second from alice'], { from: ALICE }), '2')
    t.equal(g.reason('sign', ['']), 'the message is empty')
    t.equal(g.get('count'), '3')
    t.equal(g.get('message', [0]), '0x' + messageWord)
    t.equal(g.get('message', [1]), '0x' + 'ab'.repeat(32))
    t.equal(g.get('author', [1]), BOB)
    t.equal(g.get('height', [2]), '42')
    t.equal(g.get('entries_by', [ALICE]), '2')
    t.equal(g.get('entries_by', [CAROL]), '0')
    for (const m of ['message', 'author', 'height']) t.equal(g.reason(m, [3]), 'no such entry')
  })

  t.test(`${core}: multisig`, async (t) => {
    const m = new Deployed(source('multisig'), core)
    t.strictSame(m.deployReceipt.logs.map((l) => l.topics), [[topic('OwnerAdded(address)'), word(DEPLOYER)]])
    t.equal(m.get('is_owner', [DEPLOYER]), true)
    t.equal(m.get('required'), '1')
    t.equal(m.reason('add_owner', [BOB], { from: ALICE }), 'only the creator configures the wallet')
    m.get('add_owner', [ALICE])
    m.get('add_owner', [BOB])
    t.equal(m.reason('add_owner', [ALICE]), 'already an owner')
    t.equal(m.get('owners_total'), '3')
    t.equal(m.reason('set_threshold', [4]), 'threshold must be between 1 and the number of owners')
    t.equal(m.reason('set_threshold', [0]), 'threshold must be between 1 and the number of owners')
    m.get('set_threshold', [2])
    t.equal(m.reason('propose', [CAROL, 1], { from: ALICE }), 'seal the owner set first')
    m.get('seal')
    t.equal(m.get('is_sealed'), true)
    t.equal(m.reason('add_owner', [CAROL]), 'the owner set is sealed')

    t.equal(m.get('deposit', [], { from: CAROL, value: 1000n }), '1000')
    t.equal(m.state.getBalance(m.address), 1000n)
    t.equal(m.reason('propose', [CAROL, 600], { from: CAROL }), 'not an owner')
    const proposed = m.call('propose', [CAROL, 600], { from: ALICE })
    t.equal(proposed.value, '0')
    t.strictSame(proposed.receipt.logs.map((l) => l.topics[0]), [topic('Proposed(uint,address,address,uint)'), topic('Approved(uint,address,uint)')])
    t.equal(m.get('approvals', [0]), '1')
    t.equal(m.get('has_approved', [0, ALICE]), true)
    t.equal(m.get('has_approved', [0, BOB]), false)
    t.equal(m.get('payee', [0]), CAROL)
    t.equal(m.get('amount_of', [0]), '600')
    t.equal(m.reason('execute', [0], { from: ALICE }), 'not enough approvals')
    t.equal(m.reason('approve', [0], { from: ALICE }), 'already approved')
    t.equal(m.reason('approve', [0], { from: CAROL }), 'not an owner')
    t.equal(m.reason('approve', [1], { from: BOB }), 'no such proposal')
    t.equal(m.get('approve', [0], { from: BOB }), '2')
    const carolBefore = m.state.getBalance(CAROL)
    const executed = m.call('execute', [0], { from: BOB })
    t.equal(executed.receipt.success, true)
    t.strictSame(executed.receipt.logs, [{ address: m.address, topics: [topic('Executed(uint,address,uint)'), word('0'), word(CAROL)], data: word((600).toString(16)) }])
    t.equal(m.state.getBalance(CAROL), carolBefore + 600n)
    t.equal(m.state.getBalance(m.address), 400n)
    t.equal(m.get('executed', [0]), true)
    t.equal(m.reason('execute', [0], { from: ALICE }), 'already executed')
    t.equal(m.reason('approve', [0], { from: DEPLOYER }), 'already executed')

    t.equal(m.get('propose', [CAROL, 500], { from: DEPLOYER }), '1')
    t.equal(m.get('approve', [1], { from: BOB }), '2')
    t.equal(m.reason('execute', [1], { from: BOB }), 'the wallet cannot cover the payment')
    t.equal(m.get('proposals'), '2')
  })
}

t.test('the examples compile to the same code every time', async (t) => {
  for (const e of EXAMPLES) {
    t.equal(new Deployed(e.source).compiled.bytecode_hex, new Deployed(e.source).compiled.bytecode_hex, e.id)
  }
})
