import t from 'tap'
import path from 'node:path'
import os from 'node:os'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { BenchUsageError, measure, runBench } from '../../bench/index.ts'
import type { BenchResult } from '../../bench/index.ts'

t.test('unknown families and bad run counts are refused before anything runs', async (t) => {
  const printed: string[] = []
  await t.rejects(measure({ only: ['pow', 'gpu'], runs: 5, quick: true }, { print: (s) => printed.push(s) }), { name: 'BenchUsageError', message: /unknown bench family: gpu \(known: pow, sha3, mldsa, vm, block, sync, http, attest, cli\)/ })
  await t.rejects(measure({ only: ['pow'], runs: 0, quick: true }, { print: (s) => printed.push(s) }), { name: 'BenchUsageError', message: /--runs must be a positive integer/ })
  t.same(printed, [], 'nothing measured or printed')
  t.ok(new BenchUsageError('x') instanceof Error)
})

t.test('runBench --json writes the machine, the families and their figures', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ledger-bench-json-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'out.json')
  const printed: string[] = []
  const write = process.stdout.write.bind(process.stdout)
  const writeErr = process.stderr.write.bind(process.stderr)
  // the table goes to stdout and progress to stderr: captured here to keep the test output clean
  process.stdout.write = ((chunk: string) => { printed.push(String(chunk)); return true }) as typeof process.stdout.write
  process.stderr.write = (() => true) as typeof process.stderr.write
  try {
    await runBench({ only: ['mldsa'], runs: 2, quick: true, json: file })
  } finally {
    process.stdout.write = write
    process.stderr.write = writeErr
  }
  const result = JSON.parse(readFileSync(file, 'utf8')) as BenchResult
  t.equal(result.runs, 2)
  t.equal(result.quick, true)
  t.equal(result.machine.node, process.version)
  t.type(result.machine.packages['@noble/post-quantum'], 'string')
  t.same(result.families.map((f) => f.family), ['mldsa'])
  t.same(result.timeline.map((f) => f.family), ['mldsa'], 'the timeline has each family that ran')
  t.type(result.timeline[0]!.loadAtStart, 'number')
  t.equal(result.families[0]!.rows[0]!.stats!.samples.length, 2)
  t.match(printed.join(''), /mldsa +ML-DSA-87 keygen, native/, 'the table went to stdout')
})

t.test('ledger bench: a bad family or run count is a usage error (exit 2) naming the known families', async (t) => {
  const { spawnSync } = await import('node:child_process')
  const bin = new URL('../../bin/ledger.ts', import.meta.url).pathname
  const bad = spawnSync(process.execPath, [bin, 'bench', '--only', 'pow,gpu'], { encoding: 'utf8' })
  t.equal(bad.status, 2)
  t.match(bad.stderr, 'ledger: unknown bench family: gpu (known: pow, sha3, mldsa, vm, block, sync, http, attest, cli)')
  t.equal(bad.stdout, '', 'nothing measured')
  const runs = spawnSync(process.execPath, [bin, 'bench', '--runs', '0'], { encoding: 'utf8' })
  t.equal(runs.status, 2)
  t.match(runs.stderr, '--runs must be a positive integer')
  const help = spawnSync(process.execPath, [bin, 'bench', '--help'], { encoding: 'utf8' })
  t.equal(help.status, 0)
  for (const option of ['--only', '--json', '--markdown', '--runs', '--quick']) t.match(help.stdout, option, `--help lists ${option}`)
})
