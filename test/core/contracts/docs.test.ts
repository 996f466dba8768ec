// docs/contracts.md stays true: every ```contract block compiles and deploys on both cores (and
// a few do what the text says), and its instruction table matches the VM's opcode table.
import t from 'tap'
import { readFileSync } from 'node:fs'
import { OPCODES } from '../../../core/vm/opcodes.ts'
import { Deployed, ALICE, DEPLOYER } from './harness.ts'

const doc = readFileSync(new URL('../../../docs/contracts.md', import.meta.url), 'utf8')
const blocks = [...doc.matchAll(/```contract\n([\s\S]*?)```/g)].map((m) => m[1] as string)

t.test('every contract block compiles and deploys', async (t) => {
  t.ok(blocks.length >= 5, `${blocks.length} blocks`)
  for (const source of blocks) {
    for (const core of ['wasm', 'js'] as const) {
      const d = new Deployed(source, core)
      t.equal(d.deployReceipt.success, true, `${d.compiled.abi.contract} on ${core}`)
    }
  }
})

t.test('the examples do what the text says', async (t) => {
  const byName = new Map(blocks.map((s) => { const d = new Deployed(s); return [d.compiled.abi.contract, d] }))
  const counter = byName.get('Counter') as Deployed
  t.equal(counter.get('increment', [5]), '5')
  const loops = byName.get('Loops') as Deployed
  t.equal(loops.get('primes_below', [20]), '8')
  t.equal(loops.get('fib', [10]), '55')
  const token = byName.get('Token') as Deployed
  t.equal(token.get('send', [ALICE, 400]), true)
  t.equal(token.get('balance_of', [ALICE]), '400')
  t.equal(token.reason('send', [ALICE, 401], { from: ALICE }), 'insufficient tokens')
  const jar = byName.get('TipJar') as Deployed
  t.equal(jar.get('tip', [], { from: ALICE, value: 300n }), '300')
  t.equal(jar.reason('withdraw', [], { from: ALICE }), 'only the owner withdraws')
  const ownerBefore = jar.state.getBalance(DEPLOYER)
  jar.get('withdraw')
  t.equal(jar.state.getBalance(DEPLOYER), ownerBefore + 300n)
  t.equal(jar.state.getBalance(jar.address), 0n)
})

t.test('the instruction table matches the opcode table', async (t) => {
  const rows = [...doc.matchAll(/^\| (0x[0-9a-f]{2})(?:\.\.0x[0-9a-f]{2})? \| ([A-Z0-9.]+) \| ([^|]+) \| ([^|]+) \| ([^|]+) \|/gm)]
  t.ok(rows.length > 50, `${rows.length} rows`)
  const covered = new Set<number>()
  for (const [, code, name, pops, pushes, gas] of rows) {
    const first = OPCODES[parseInt(code as string, 16)] as (typeof OPCODES)[number]
    const family = (name as string).split('..')
    const n = family.length > 1 ? Number((family[1] as string).replace(/\D/g, '')) : 0
    const count = family.length > 1 ? n - Number((family[0] as string).replace(/\D/g, '')) + 1 : 1
    for (let k = 0; k < count; k++) {
      const o = OPCODES[first.code + k] as (typeof OPCODES)[number]
      covered.add(o.code)
      const m = Number((family[0] as string).replace(/\D/g, '') || 0) + k
      const sub = (s: string): number => Number(s.trim().replace(/n/g, String(m)).split('+').reduce((a, b) => String(Number(a) + Number(b.trim()))))
      t.equal(o.defined, true, `${o.name} is defined`)
      if (family.length === 1) t.equal(o.name, name, `row ${code}`)
      t.equal(o.inputs, sub(pops as string), `${o.name} pops`)
      t.equal(o.outputs, sub(pushes as string), `${o.name} pushes`)
      t.equal(o.gas, (gas as string).includes('375n') ? 375 + 375 * m : Number(gas), `${o.name} gas`)
    }
  }
  t.equal(covered.size, OPCODES.filter((o) => o.defined).length, 'every defined opcode has a row')
})
