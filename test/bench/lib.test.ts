import t from 'tap'
import { summarize, pairedRatios } from '../../bench/lib/stats.ts'
import { interleave, rateSample, roundsFor } from '../../bench/lib/sampler.ts'
import { goal, goalNotEvaluated } from '../../bench/lib/goals.ts'
import { renderMarkdown, renderText } from '../../bench/lib/table.ts'
import { formatNumber } from '../../bench/lib/format.ts'
import type { FamilyReport } from '../../bench/lib/types.ts'

t.test('summarize gives min, median and max, keeping the samples in run order', async (t) => {
  t.same(summarize([3, 1, 2]), { min: 1, median: 2, max: 3, samples: [3, 1, 2] })
  t.equal(summarize([4, 1, 3, 2]).median, 2.5, 'even count: mean of the middle two')
  t.throws(() => summarize([]), RangeError)
})

t.test('pairedRatios divides run by run', async (t) => {
  t.same(pairedRatios([10, 30, 20], [5, 10, 10]).samples, [2, 3, 2])
  t.equal(pairedRatios([10, 30, 20], [5, 10, 10]).median, 2)
  t.throws(() => pairedRatios([1, 2], [1]), RangeError)
})

t.test('interleave drops the warm-up round and rotates who goes first', async (t) => {
  const order: string[] = []
  let n = 0
  const samples = await interleave({ a: () => { order.push('a'); return ++n }, b: async () => { order.push('b'); return ++n } }, { runs: 3, warmup: 1 })
  t.same(order, ['a', 'b', 'b', 'a', 'a', 'b', 'b', 'a'])
  t.same(samples, { a: [4, 5, 8], b: [3, 6, 7] }, 'the warm-up round (1, 2) is gone; sample i of each is from round i')
})

t.test('roundsFor: the family\'s rounds per run times the runs, one a run in a quick run', async (t) => {
  t.equal(roundsFor({ runs: 5, quick: false }, 3), 15)
  t.equal(roundsFor({ runs: 5, quick: false }, 1), 5)
  t.equal(roundsFor({ runs: 2, quick: true }, 3), 2)
})

t.test('rateSample runs the batch for at least the budget and counts its operations', async (t) => {
  // bounds that hold however the thread is scheduled (a batch may outlast the whole budget)
  let calls = 0
  const t0 = performance.now()
  const rate = rateSample(() => { calls++; return 10 }, 20)
  const total = performance.now() - t0
  t.ok(total >= 20, 'it ran for at least the budget')
  t.ok(calls >= 1)
  t.ok(rate <= 10 * calls * 1000 / 20, 'operations counted over at least the budget')
  t.ok(rate >= 10 * calls * 1000 / total, 'and over no more than the time it ran')
})

t.test('goal verdicts come from the median ratio', async (t) => {
  const ratio = summarize([1.5, 2.5, 2.1])
  t.equal(goal('pow', 'x', ratio, '>=', 2).met, true)
  t.equal(goal('pow', 'x', ratio, '>=', 2.2).met, false)
  t.equal(goal('block', 'x', ratio, '<=', 2).met, false)
  t.equal(goalNotEvaluated('pow', 'x', '>=', 1.8, 'one core').met, null)
})

const reports: FamilyReport[] = [
  {
    family: 'pow',
    title: 'PoW',
    available: true,
    rows: [{ family: 'pow', name: 'WASM core', unit: 'nonces/s', stats: summarize([1_000_000, 2_000_000, 3_000_000]) }],
    goals: [goal('pow', 'WASM ≥ 2× anchor', summarize([1.5, 1.8, 1.9]), '>=', 2)],
    seconds: 1
  },
  { family: 'vm', title: 'vm', available: false, reason: 'core/vm is missing', rows: [], goals: [], seconds: 0 }
]

t.test('the text table shows figures, unavailable families and verdicts', async (t) => {
  const text = renderText(reports)
  t.match(text, /pow +WASM core +nonces\/s +1,000,000 +2,000,000 +3,000,000/)
  t.match(text, /vm +not available yet: core\/vm is missing/)
  t.match(text, /WASM ≥ 2× anchor +>= 2 +1\.50× \/ 1\.80× \/ 1\.90× +MISSED/)
})

t.test('a missed goal says when the machine was loaded; the load is printed', async (t) => {
  const busy = renderText(reports, { cores: 2, atStart: 0.4, atEnd: 2.5, familyStart: { pow: 1.8 } })
  t.match(busy, /WASM ≥ 2× anchor .*MISSED +machine loaded \(1-min load 1\.8 on 2 cores\): re-run on an idle machine/)
  t.match(busy, 'load average (1 min): 0.4 at start, 2.5 at the end, on 2 cores')
  const idle = renderText(reports, { cores: 2, atStart: 0.4, atEnd: 0.9, familyStart: { pow: 0.5 } })
  t.notMatch(idle, 'machine loaded', 'no warning on an idle machine')
  const met = [{ ...reports[0]!, goals: [goal('pow', 'WASM ≥ 1× anchor', summarize([1.5, 1.8, 1.9]), '>=', 1)] }]
  t.notMatch(renderText(met, { cores: 2, atStart: 4, atEnd: 4, familyStart: { pow: 4 } }), 'machine loaded', 'a met goal needs no excuse')
  t.match(renderMarkdown(reports, { cores: 2, atStart: 3, atEnd: 3, familyStart: {} }).goals, '| MISSED | machine loaded (1-min load 3 on 2 cores): re-run on an idle machine |')
})

t.test('the markdown tables carry the same content', async (t) => {
  const md = renderMarkdown(reports)
  t.match(md.rows, '| pow | WASM core | nonces/s | 1,000,000 | 2,000,000 | 3,000,000 |')
  t.match(md.rows, '| vm | not available yet: core/vm is missing |')
  t.match(md.goals, '| pow | WASM ≥ 2× anchor | >= 2 | 1.50× / 1.80× / 1.90× | MISSED |')
})

t.test('formatNumber keeps three significant digits below 100', async (t) => {
  t.equal(formatNumber(1234567.8), '1,234,568')
  t.equal(formatNumber(12.345), '12.3')
  t.equal(formatNumber(1.2345), '1.23')
  t.equal(formatNumber(0.012345), '0.0123')
})

const result = {
  started: '2026-11-22T22:00:00.000Z',
  seconds: 420,
  runs: 5,
  quick: false,
  machine: { cpu: 'Test CPU', cores: 2, memoryGiB: 4, os: 'Linux', node: 'v24.21.0', v8: '13', project: 'ledger-node 0.1.0', commit: 'abc1234', packages: { 'hash-wasm': '4.13.0' }, loadAverage: [1, 2, 3] },
  loadAverageAtEnd: [0.5, 1, 2],
  timeline: [{ family: 'pow' as const, seconds: 33.4, loadAtStart: 1.5, loadAtEnd: 2.25 }],
  families: reports
}

t.test('--markdown rewrites only the measured part of BENCHMARKS.md', async (t) => {
  const { withMeasuredPart, BEGIN_MARKER, END_MARKER } = await import('../../bench/lib/markdown.ts')
  const fresh = withMeasuredPart(null, result)
  t.match(fresh, /^# Benchmarks\n/, 'a new file gets a title')
  t.match(fresh, BEGIN_MARKER)
  t.match(fresh, END_MARKER)
  const prose = `# Benchmarks\n\nIntro prose.\n\n${BEGIN_MARKER}\nold figures\n${END_MARKER}\n\n## Goals, explained\n\nMore prose.\n`
  const updated = withMeasuredPart(prose, result)
  t.ok(updated.startsWith('# Benchmarks\n\nIntro prose.\n\n' + BEGIN_MARKER), 'the prose before is kept')
  t.ok(updated.endsWith(`${END_MARKER}\n\n## Goals, explained\n\nMore prose.\n`), 'the prose after is kept')
  t.notMatch(updated, 'old figures', 'the old figures are gone')
  t.match(updated, '| pow | WASM core | nonces/s |')
  t.equal(withMeasuredPart(updated, result), updated, 'rewriting with the same result changes nothing')
  const noMarkers = withMeasuredPart('# Notes\n', result)
  t.ok(noMarkers.startsWith('# Notes\n\n' + BEGIN_MARKER), 'a file without markers gets the part appended')
})

t.test('the BENCHMARKS.md section names the machine, the versions, the figures and the verdict count', async (t) => {
  const { benchmarksMarkdown } = await import('../../bench/lib/markdown.ts')
  const md = benchmarksMarkdown(result)
  t.match(md, '| machine | Test CPU, 2 cores, 4 GiB, Linux |')
  t.match(md, '| Node | v24.21.0 (V8 13) |')
  t.match(md, 'hash-wasm 4.13.0')
  t.match(md, '### Goals: 0 met, 1 missed')
  t.match(md, 'pow 33 s (1.5 → 2.25)', 'each family\'s time and the load around it')
  t.match(md, '| pow | WASM core | nonces/s |')
})
