// compile(): ABI shape, selectors, event topics, storage layout, and errors with positions.
import t from 'tap'
import crypto from 'node:crypto'
import { compile, CompileError } from '../../../core/contracts/index.ts'
import { codeDefect } from '../../../core/vm/code.ts'

const COUNTER = `contract Counter {
    storage count: uint @ 0;
    event Incremented(by: uint indexed, total: uint);
    fn init() { }
    pub fn increment(by: uint) -> uint { count = count + by; emit Incremented(by, count); return count; }
    pub fn get() -> uint { return count; }
}`

t.test('the result carries deploy bytecode, its hex and size, and the ABI', async (t) => {
  const r = compile(COUNTER)
  t.equal(r.bytecode_hex, Buffer.from(r.bytecode).toString('hex'))
  t.equal(r.bytecode_size, r.bytecode.length)
  t.equal(codeDefect(r.bytecode), null, 'the deploy code is well formed')
  t.equal(codeDefect(r.runtime), null, 'the runtime code is well formed')
  t.ok(r.bytecode_hex.endsWith(Buffer.from(r.runtime).toString('hex')), 'the runtime code is appended to the init code')
  t.strictSame(r.abi, {
    contract: 'Counter',
    methods: [
      { name: 'increment', selector: 1, params: [{ name: 'by', type: 'uint' }], returns: 'uint', mutates: true },
      { name: 'get', selector: 2, params: [], returns: 'uint', mutates: false }
    ],
    storage: [{ name: 'count', type: 'uint', slot: 0 }],
    events: [{
      name: 'Incremented',
      signature: 'Incremented(uint,uint)',
      topic: crypto.hash('sha3-256', 'Incremented(uint,uint)', 'hex'),
      params: [{ name: 'by', type: 'uint', indexed: true }, { name: 'total', type: 'uint', indexed: false }]
    }]
  })
})

t.test('the ABI says which methods change state, through calls too (issue 14 item 9)', async (t) => {
  const r = compile(`contract E {
    storage n: uint @ 0;
    storage m: map<address, uint> @ 1;
    event Seen(who: address indexed);
    fn bump() { n += 1; }
    fn peek() -> uint { return n; }
    pub fn read() -> uint { let x: uint = peek(); return x + n; }
    pub fn write() { bump(); }
    pub fn put(v: uint) { m[caller()] = v; }
    pub fn shout() { emit Seen(caller()); }
    pub fn pay(to: address) { transfer(to, 1); }
    pub fn local() -> uint { let y: uint = 2; y += 3; return y; }
    pub fn hash(v: uint) -> bytes32 { require(v > 0, "zero"); return sha3(v); }
  }`)
  t.same(Object.fromEntries(r.abi.methods.map((m) => [m.name, m.mutates])), { read: false, write: true, put: true, shout: true, pay: true, local: false, hash: false })
})

t.test('selectors count public functions from 0x01 in source order', async (t) => {
  const r = compile(`contract S {
    fn helper() -> uint { return 1; }
    pub fn zeta() { }
    fn init() { }
    pub fn alpha(a: address, b: bool, c: bytes32) -> bool { return b; }
    fn other() { }
    pub fn mid() -> address { return caller(); }
  }`)
  t.strictSame(r.abi.methods.map((m) => [m.name, m.selector, m.returns]), [['zeta', 1, null], ['alpha', 2, 'bool'], ['mid', 3, 'address']])
  t.strictSame(r.abi.methods[1]?.params, [{ name: 'a', type: 'address' }, { name: 'b', type: 'bool' }, { name: 'c', type: 'bytes32' }])
})

t.test('storage slots: explicit, automatic after the last, and maps with their types', async (t) => {
  const r = compile(`contract L {
    storage a: uint;
    storage b: map<address, uint> @ 5;
    storage c: map<uint, map<address, bool>>;
    storage d: bytes32 @ 2;
    storage e: address;
  }`)
  t.strictSame(r.abi.storage, [
    { name: 'a', type: 'uint', slot: 0 },
    { name: 'b', type: 'map<address,uint>', slot: 5 },
    { name: 'c', type: 'map<uint,map<address,bool>>', slot: 6 },
    { name: 'd', type: 'bytes32', slot: 2 },
    { name: 'e', type: 'address', slot: 7 }
  ])
  t.equal(compile('contract Big { storage x: uint @ 0xffffffffffffffffffff; }').abi.storage[0]?.slot, '1208925819614629174706175')
})

t.test('event signatures use the parameter types; topics are their SHA3-256', async (t) => {
  const r = compile(`contract E {
    event Moved(from: address indexed, to: address indexed, amount: uint, note: bytes32, ok: bool);
    event Ping();
  }`)
  t.strictSame(r.abi.events.map((e) => [e.signature, e.topic]), [
    ['Moved(address,address,uint,bytes32,bool)', crypto.hash('sha3-256', 'Moved(address,address,uint,bytes32,bool)', 'hex')],
    ['Ping()', crypto.hash('sha3-256', 'Ping()', 'hex')]
  ])
})

const errors: Array<[string, string]> = [
  ['contract C {\n  pub fn f() -> uint {\n    return x;\n  }\n}', '3:12: unknown identifier \'x\''],
  ['contract C {\n  storage a: uint;\n  pub fn f() { a = true; }\n}', '3:20: expected uint but found bool'],
  ['contract C { pub fn f() -> uint { } }', '1:14: function \'f\' must return a uint on every path'],
  ['contract C { pub fn f() -> uint { if true { return 1; } } }', '1:14: function \'f\' must return a uint on every path'],
  ['contract C { storage a: uint @ 1; storage b: uint @ 1; }', '1:35: slot 1 is already used by \'a\''],
  ['contract C { storage a: uint; fn a() { } }', '1:31: \'a\' is already a storage variable'],
  ['contract C { pub fn init() { } }', '1:14: init() runs at deploy and cannot be pub'],
  ['contract C { fn init(x: uint) { } }', '1:14: init() takes no parameters and returns nothing (init_calldata must be empty)'],
  ['contract C { fn f() { g(); } }', '1:23: unknown function \'g\''],
  ['contract C { fn f() { break; } }', '1:23: \'break\' outside a loop'],
  ['contract C { fn f() { let x = 1; let x = 2; } }', '1:34: \'x\' is already declared in this function'],
  ['contract C { fn f() { let s = "hi"; } }', '1:31: strings are only allowed as the message of require() or revert()'],
  ['contract C { fn f() { require(1, "m"); } }', '1:31: expected bool but found uint'],
  ['contract C { fn f() { emit Nope(); } }', '1:23: unknown event \'Nope\''],
  ['contract C { event E(a: uint indexed, b: uint indexed, c: uint indexed, d: uint indexed); }', '1:14: an event has at most 3 indexed parameters'],
  ['contract C { fn f() { 1 + 2; } }', '1:23: this expression does nothing; only calls can stand alone'],
  ['contract C { fn f() -> bool { return 1 < 2 < 3; } }', '1:44: comparisons cannot be chained; use && between them'],
  ['contract C { fn f() { let x = 0 - 1; let y = -x; } }', '1:46: there are no negative numbers: uint is unsigned'],
  ['contract C { fn f() { let m: map<uint, uint> = 1; } }', '1:23: \'m\': maps exist only in storage'],
  ['contract C { storage m: map<uint, uint>; fn f() { m = 1; } }', '1:51: cannot assign a whole map \'m\'; assign its entries'],
  ['contract C { fn f() -> address { return 1 as bool as address; } }', '1:51: cannot cast bool to address'],
  ['contract C { fn f() { let x = 0x; } }', '1:31: bad number literal \'0x\''],
  ['contract C { fn f() { let x = 1 ; } ', '1:37: expected \'}\' to close the contract'],
  ['contract C { fn f() { let x = "open; } }', '1:31: unterminated string'],
  ['contract C { fn f() { let x = 1 # 2; } }', '1:33: unexpected character \'#\''],
  ['contract C { fn f() { transfer(caller()); } }', '1:23: transfer() takes 2 arguments, got 1'],
  ['contract C { fn f() -> uint { return caller(); } }', '1:38: expected uint but found address'],
  ['contract C { fn f() { let x = require(true); } }', '1:31: require() can only be used as a statement'],
  ['contract C { fn caller() { } }', '1:14: \'caller\' is a builtin function'],
  ['contract C { const K: uint = true; }', '1:30: constant \'K\' is uint but its value is not'],
  ['contract C { const K: uint = 1; fn f() { K = 2; } }', '1:42: cannot assign to constant \'K\''],
  ['contract C { fn f() { let x = 115792089237316195423570985008687907853269984665640564039457584007913129639936; } }',
    '1:31: number literal 115792089237316195423570985008687907853269984665640564039457584007913129639936 does not fit in 256 bits'],
  ['contract C {\n  /* never\n  closed', '2:3: unterminated comment'],
  ['contract C { } trailing', '1:16: unexpected \'trailing\' after the contract'],
  ['struct C { }', '1:1: expected \'contract\' but found \'struct\'']
]

t.test('compile errors name the line and column', async (t) => {
  for (const [source, message] of errors) {
    try {
      compile(source)
      t.fail(`compiled: ${source}`)
    } catch (err) {
      t.ok(err instanceof CompileError, 'a CompileError')
      t.equal((err as CompileError).message, message, source.replace(/\n/g, '⏎'))
      const [line, column] = message.split(':').map(Number)
      t.strictSame([(err as CompileError).line, (err as CompileError).column], [line, column])
    }
  }
})

t.test('more than 255 public functions do not fit one-byte selectors', async (t) => {
  const fns = Array.from({ length: 256 }, (_, i) => `pub fn f${i}() { }`).join('\n')
  t.throws(() => compile(`contract Many {\n${fns}\n}`), /257:1: at most 255 public functions/)
})
