// Issue 12 item 11: hostile sources (deep nesting, long operator chains, huge code, slow
// compiles) end in a CompileError with a position, never a stack overflow or another crash.
import t from 'tap'
import { compile, CompileError } from '../../../core/contracts/index.ts'
import { parse } from '../../../core/contracts/parser.ts'
import { COMPILE_LIMITS, CompileDeadline } from '../../../core/contracts/limits.ts'
import { getExample } from '../../../core/contracts/index.ts'

const wrap = (expr: string): string => `contract C { storage m: map<uint, uint>; pub fn f() -> uint { return ${expr}; } }`

function compileError (source: string): CompileError {
  try {
    compile(source)
  } catch (err) {
    if (err instanceof CompileError) return err
    throw err
  }
  throw new Error('the source compiled')
}

t.test('200,000 nested parentheses: a size error, not a stack overflow', async (t) => {
  const err = compileError(wrap('('.repeat(200_000) + '1' + ')'.repeat(200_000)))
  t.match(err.message, /^1:1: the source is 400\d+ bytes; at most 65536$/)
})

t.test('nesting inside the size limit stops at the nesting bound, with a position', async (t) => {
  const n = COMPILE_LIMITS.nesting
  const hostile: Record<string, string> = {
    parentheses: wrap('('.repeat(20_000) + '1' + ')'.repeat(20_000)),
    negations: `contract C { pub fn f() -> bool { return ${'!'.repeat(60_000)}true; } }`,
    blocks: `contract C { pub fn f() { ${'if true {'.repeat(6000)}${'}'.repeat(6000)} } }`,
    calls: wrap('sha3('.repeat(10_000) + '1' + ')'.repeat(10_000)),
    'map types': `contract C { storage m: ${'map<uint, '.repeat(5000)}uint${'>'.repeat(5000)}; }`
  }
  for (const [what, source] of Object.entries(hostile)) {
    t.ok(Buffer.byteLength(source) <= COMPILE_LIMITS.sourceBytes, `${what}: within the size limit`)
    const err = compileError(source)
    t.match(err.reason, `nesting deeper than ${n} levels`, what)
    t.ok(err.line >= 1 && err.column > 1, `${what}: the error points into the source`)
  }
  // just inside the bound still compiles
  t.doesNotThrow(() => compile(wrap('('.repeat(n - 2) + '1' + ')'.repeat(n - 2))), `${n - 2} parentheses compile`)
})

t.test('operator chains built in a loop are bounded by tree height', async (t) => {
  const d = COMPILE_LIMITS.expressionDepth
  const chains: Record<string, string> = {
    sums: wrap(Array(15_000).fill('1').join(' + ')),
    indexes: wrap('m' + '[1]'.repeat(15_000)),
    casts: wrap('1' + ' as uint'.repeat(7000)),
    'sums of parenthesised sums': wrap(Array(250).fill(`(${Array(60).fill('1').join('+')})`).join('*'))
  }
  for (const [what, source] of Object.entries(chains)) {
    t.match(compileError(source).reason, `expression nested deeper than ${d} levels`, what)
  }
  t.doesNotThrow(() => compile(wrap(Array(100).fill('1').join(' + '))), 'a 100-term sum compiles')
})

t.test('code too large for the jump encoding is a compile error', async (t) => {
  const source = `contract C { pub fn f() -> uint { let x: uint = 0; ${'x = x + 1; '.repeat(5500)} return x; } }`
  t.match(compileError(source).reason, /too large for 2-byte jump targets/)
})

t.test('a compile that runs out of time stops at the deadline', async (t) => {
  const source = `contract C { pub fn f() -> uint { let x: uint = 0; ${'x = x + 1; '.repeat(500)} return x; } }`
  const expired = new CompileDeadline(0)
  const started = performance.now()
  while (performance.now() === started) { /* let the clock pass the zero budget */ }
  t.throws(() => parse(source, expired), { name: 'CompileError', reason: 'compilation took longer than 0 ms; simplify the contract' })
  t.doesNotThrow(() => parse(source, new CompileDeadline(60_000)))
})

t.test('the bundled examples are far inside every bound', async (t) => {
  for (const id of ['counter', 'guestbook', 'multisig']) {
    const source = getExample(id)?.source ?? ''
    t.ok(Buffer.byteLength(source) < COMPILE_LIMITS.sourceBytes / 4, `${id} is small`)
    t.doesNotThrow(() => compile(source), id)
  }
})
