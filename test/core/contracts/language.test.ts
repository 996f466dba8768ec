// What the language's constructs do when run: arithmetic checks, control flow, recursion,
// maps and their storage layout, casts, builtins, events and the dispatcher's refusals.
import t from 'tap'
import crypto from 'node:crypto'
import { mappingSlot } from '../../../core/contracts/index.ts'
import { executeCall } from '../../../core/vm/index.ts'
import { Deployed, DEPLOYER, ALICE, BOB, env } from './harness.ts'

const MAX = (1n << 256n) - 1n

t.test('uint arithmetic is checked', async (t) => {
  const c = new Deployed(`contract A {
    pub fn add(a: uint, b: uint) -> uint { return a + b; }
    pub fn sub(a: uint, b: uint) -> uint { return a - b; }
    pub fn mul(a: uint, b: uint) -> uint { return a * b; }
    pub fn div(a: uint, b: uint) -> uint { return a / b; }
    pub fn rem(a: uint, b: uint) -> uint { return a % b; }
    pub fn shifts(a: uint) -> uint { return (a << 4) >> 2; }
    pub fn bits(a: uint, b: uint) -> uint { return (a & b) | (a ^ b); }
    pub fn compound(a: uint) -> uint { let x = a; x += 10; x -= 3; x *= 4; x /= 2; x %= 100; x <<= 1; x >>= 1; return x; }
  }`)
  t.equal(c.get('add', [2, 3]), '5')
  t.equal(c.reason('add', [MAX, 1]), 'arithmetic overflow')
  t.equal(c.get('add', [MAX - 1n, 1]), MAX.toString())
  t.equal(c.get('sub', [3, 3]), '0')
  t.equal(c.reason('sub', [2, 3]), 'arithmetic underflow')
  t.equal(c.get('mul', [0, MAX]), '0')
  t.equal(c.get('mul', [1n << 128n, (1n << 128n) - 1n]), ((1n << 256n) - (1n << 128n)).toString())
  t.equal(c.reason('mul', [1n << 128n, 1n << 128n]), 'arithmetic overflow')
  t.equal(c.get('div', [7, 2]), '3')
  t.equal(c.reason('div', [7, 0]), 'division by zero')
  t.equal(c.get('rem', [7, 4]), '3')
  t.equal(c.reason('rem', [7, 0]), 'division by zero')
  t.equal(c.get('shifts', [3]), '12')
  t.equal(c.get('bits', [0b1100, 0b1010]), String(0b1110))
  t.equal(c.get('compound', [5]), String(((((5 + 10 - 3) * 4) / 2) % 100)))
})

t.test('comparisons, logic and short-circuit evaluation', async (t) => {
  const c = new Deployed(`contract L {
    storage touched: uint;
    fn touch() -> bool { touched += 1; return true; }
    pub fn cmp(a: uint, b: uint) -> uint {
      let r = 0;
      if a < b { r += 1; }
      if a <= b { r += 10; }
      if a > b { r += 100; }
      if a >= b { r += 1000; }
      if a == b { r += 10000; }
      if a != b { r += 100000; }
      return r;
    }
    pub fn and_or(a: bool, b: bool) -> uint {
      let r = 0;
      if a && b { r += 1; }
      if a || b { r += 2; }
      if !a { r += 4; }
      return r;
    }
    pub fn lazy(a: bool) -> uint {
      if a || touch() { }
      if !a && touch() { }
      return touched;
    }
  }`)
  t.equal(c.get('cmp', [1, 2]), '100011')
  t.equal(c.get('cmp', [2, 2]), '11010')
  t.equal(c.get('cmp', [3, 2]), '101100')
  t.equal(c.get('and_or', [true, true]), '3')
  t.equal(c.get('and_or', [true, false]), '2')
  t.equal(c.get('and_or', [false, false]), '4')
  t.equal(c.get('lazy', [true]), '0', 'true || f() and !true && f() never call f')
  t.equal(c.get('lazy', [false]), '2')
})

t.test('loops, break, continue, recursion and internal calls', async (t) => {
  const c = new Deployed(`contract F {
    pub fn fib(n: uint) -> uint { if n < 2 { return n; } return fib(n - 1) + fib(n - 2); }
    pub fn sum_odd(n: uint) -> uint {
      let s = 0;
      for i in 0..n { if i % 2 == 0 { continue; } s += i; }
      return s;
    }
    pub fn first_square_over(limit: uint) -> uint {
      let i = 0;
      while true { if i * i > limit { break; } i += 1; }
      return i;
    }
    pub fn nested(n: uint) -> uint {
      let count = 0;
      for i in 0..n { for j in i..n { count += 1; } }
      return count;
    }
    pub fn empty_range() -> uint { let c = 0; for i in 5..2 { c += 1; } return c; }
  }`)
  t.equal(c.get('fib', [15]), '610')
  t.equal(c.get('sum_odd', [10]), '25')
  t.equal(c.get('first_square_over', [50]), '8')
  t.equal(c.get('nested', [4]), '10')
  t.equal(c.get('empty_range'), '0')
})

t.test('maps live at SHA3-256(key ‖ slot), nested maps hash again', async (t) => {
  const c = new Deployed(`contract M {
    storage total: uint @ 3;
    storage balances: map<address, uint> @ 7;
    storage allowed: map<address, map<uint, bool>> @ 8;
    storage names: map<bytes32, address> @ 9;
    pub fn credit(who: address, amount: uint) { balances[who] += amount; total += amount; }
    pub fn allow(who: address, id: uint) { allowed[who][id] = true; }
    pub fn is_allowed(who: address, id: uint) -> bool { return allowed[who][id]; }
    pub fn name(n: bytes32, who: address) { names[n] = who; }
    pub fn lookup(n: bytes32) -> address { return names[n]; }
    pub fn balance_of(who: address) -> uint { return balances[who]; }
  }`)
  c.get('credit', [ALICE, 30])
  c.get('credit', [ALICE, 12])
  c.get('credit', [BOB, 5])
  c.get('allow', [BOB, 77])
  t.equal(c.get('is_allowed', [BOB, 77]), true)
  t.equal(c.get('is_allowed', [BOB, 78]), false)
  t.equal(c.get('is_allowed', [ALICE, 77]), false)
  t.equal(c.get('balance_of', [ALICE]), '42')
  c.get('name', ['alice', ALICE])
  t.equal(c.get('lookup', ['alice']), ALICE)
  t.equal(c.state.getStorage(c.address, 3n), 47n)
  t.equal(c.state.getStorage(c.address, mappingSlot(7n, BigInt('0x' + ALICE))), 42n)
  t.equal(c.state.getStorage(c.address, mappingSlot(8n, BigInt('0x' + BOB), 77n)), 1n)
  // the layout is plain SHA3-256 of the two words, checked with an independent SHA3
  const preimage = Buffer.from(ALICE.padStart(64, '0') + (7).toString(16).padStart(64, '0'), 'hex')
  t.equal(mappingSlot(7n, BigInt('0x' + ALICE)), BigInt('0x' + crypto.hash('sha3-256', preimage, 'hex')))
  t.equal(Object.keys(c.state.dump()[c.address]?.storage ?? {}).length, 5, 'total, two balances, one allowance, one name')
})

t.test('casts, constants and builtins', async (t) => {
  const c = new Deployed(`contract B {
    const LIMIT: uint = 1_000;
    const FLAG: bool = true;
    const BURN: address = 0xdead;
    pub fn to_address(x: uint) -> address { return x as address; }
    pub fn to_uint(a: address) -> uint { return a as uint; }
    pub fn truthy(x: uint) -> bool { return x as bool; }
    pub fn as_word(x: uint) -> bytes32 { return x as bytes32; }
    pub fn consts() -> uint { if FLAG { return LIMIT + (BURN as uint); } return 0; }
    pub fn who() -> address { return caller(); }
    pub fn me() -> address { return self(); }
    pub fn paid() -> uint { return value(); }
    pub fn holdings() -> uint { return balance(self()); }
    pub fn chain() -> uint { return block_height() * 10_000_000_000 + timestamp(); }
    pub fn producer() -> address { return miner(); }
    pub fn fuel() -> bool { return gas_left() > 1000; }
    pub fn hash(a: uint, b: address) -> bytes32 { return sha3(a, b); }
  }`)
  t.equal(c.get('to_address', [(1n << 200n) + 0xabcn]), '0'.repeat(37) + 'abc', 'truncated to 160 bits')
  t.equal(c.get('to_uint', [ALICE]), BigInt('0x' + ALICE).toString())
  t.equal(c.get('truthy', [7]), true)
  t.equal(c.get('truthy', [0]), false)
  t.equal(c.get('as_word', [255]), '0x' + 'ff'.padStart(64, '0'))
  t.equal(c.get('consts'), String(1000 + 0xdead))
  t.equal(c.get('who', [], { from: BOB }), BOB)
  t.equal(c.get('me'), c.address)
  t.equal(c.get('paid', [], { value: 99n }), '99')
  t.equal(c.get('holdings'), '99')
  t.equal(c.get('chain'), String(42n * 10_000_000_000n + BigInt(env.timestamp)))
  t.equal(c.get('producer'), env.miner)
  t.equal(c.get('fuel'), true)
  const preimage = Buffer.from((5).toString(16).padStart(64, '0') + ALICE.padStart(64, '0'), 'hex')
  t.equal(c.get('hash', [5, ALICE]), '0x' + crypto.hash('sha3-256', preimage, 'hex'))
})

t.test('transfer pays out of the contract and reverts when it cannot', async (t) => {
  const c = new Deployed(`contract Pay {
    pub fn pay(to: address, amount: uint) { transfer(to, amount); }
  }`, 'js', { value: 100n })
  const before = c.state.getBalance(BOB)
  c.get('pay', [BOB, 60])
  t.equal(c.state.getBalance(BOB), before + 60n)
  t.equal(c.reason('pay', [BOB, 41]), 'transfer failed')
  t.equal(c.state.getBalance(c.address), 40n)
})

t.test('events: indexed values are topics after the signature hash, the rest is data', async (t) => {
  const c = new Deployed(`contract Ev {
    event Mixed(a: uint, b: address indexed, c: bool, d: bytes32 indexed);
    event Plain(x: uint, y: uint);
    pub fn fire() { emit Mixed(1, caller(), true, 0xff as bytes32); emit Plain(fire_value(), 3); }
    fn fire_value() -> uint { return 2; }
  }`)
  const { receipt } = c.call('fire')
  const topic = (s: string): string => crypto.hash('sha3-256', s, 'hex')
  const w = (h: string): string => h.padStart(64, '0')
  t.strictSame(receipt.logs, [
    { address: c.address, topics: [topic('Mixed(uint,address,bool,bytes32)'), w(DEPLOYER), w('ff')], data: w('1') + w('1') },
    { address: c.address, topics: [topic('Plain(uint,uint)')], data: w('2') + w('3') }
  ])
})

t.test('require and revert carry their message; init runs once at deploy', async (t) => {
  const c = new Deployed(`contract R {
    storage owner: address;
    storage inits: uint;
    fn init() { owner = caller(); inits += 1; }
    pub fn guarded() -> uint { require(caller() == owner, "owner only"); return inits; }
    pub fn fail_plain() { require(false); }
    pub fn always() -> uint { revert("never works"); }
  }`)
  t.equal(c.get('guarded'), '1')
  t.equal(c.reason('guarded', [], { from: ALICE }), 'owner only')
  t.equal(c.reason('always'), 'never works')
  const plain = c.call('fail_plain')
  t.strictSame([plain.receipt.error, plain.receipt.revert_reason], ['REVERT', null])
})

t.test('the dispatcher refuses unknown selectors, wrong lengths and out-of-range arguments', async (t) => {
  const c = new Deployed(`contract D {
    pub fn flag(b: bool) -> bool { return b; }
    pub fn who(a: address) -> address { return a; }
  }`)
  const raw = (calldata: string): string | null => executeCall({ state: c.state, caller: DEPLOYER, to: c.address, calldata, gasLimit: 100_000, env }).receipt.revert_reason
  t.equal(raw(''), 'unknown selector')
  t.equal(raw('03'), 'unknown selector')
  t.equal(raw('01'), 'bad calldata length')
  t.equal(raw('01' + '00'.repeat(33)), 'bad calldata length')
  t.equal(raw('01' + '2'.padStart(64, '0')), "bad argument 'b'")
  t.equal(raw('02' + '1' + '0'.repeat(63)), "bad argument 'a'")
  t.equal(c.get('flag', [true]), true)
  t.equal(c.get('who', [ALICE]), ALICE)
})
