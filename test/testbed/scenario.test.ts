// Scenario files: the shipped ones parse, defaults fill in, and each mistake is named.
import t from 'tap'
import { loadScenario, parseScenario, shippedScenarios, ScenarioError } from '../../testbed/scenario/parse.ts'
import { scenarioFromFlags, TestbedUsageError } from '../../testbed/index.ts'

function caught (fn: () => unknown): unknown {
  try { fn() } catch (err) { return err }
  return undefined
}

t.test('every shipped scenario parses, with steps in time order', async (t) => {
  t.same(shippedScenarios(), ['steady', 'partition', 'churn', 'late-join', 'hashrate', 'relay'])
  for (const name of shippedScenarios()) {
    const s = loadScenario(name)
    t.equal(s.name, name)
    t.ok(s.nodes >= 2 && s.nodes <= 12, `${name}: node count`)
    t.same(s.steps.map((x) => x.at), [...s.steps.map((x) => x.at)].sort((a, b) => a - b), `${name}: steps sorted`)
  }
  const p = loadScenario('partition')
  t.same(p.steps.filter((s) => s.do === 'partition').map((s) => s.do === 'partition' ? s.groups : []), [[[5, 0, 1], [2, 3, 4]]])
  t.same(loadScenario('late-join').late, [5])
  t.match(loadScenario('relay').steps, [{ do: 'load', rate: 1, wallets: 40, fundCoin: 0.5 }, { do: 'load', rate: 20, entry: 'sticky' }], 'relay: senders funded, then ~100 transfers a block')
  // hashrate: its miners' duties sum well under one core, so stopping two of four halves the
  // network's hash rate instead of handing their CPU to the other two
  const h = loadScenario('hashrate')
  t.ok(h.miners * h.mineDuty <= 80, `hashrate: ${h.miners} miners × ${h.mineDuty}% of a core`)
  t.same(h.steps.filter((x) => x.do === 'mining').map((x) => x.do === 'mining' ? [x.at, x.nodes.length, x.on] : []), [[480, h.miners / 2, false], [900, h.miners / 2, true]])
  for (const name of shippedScenarios().filter((n) => n !== 'hashrate')) t.equal(loadScenario(name).mineDuty, 100, `${name} mines flat out`)
})

t.test('defaults fill what a scenario leaves out', async (t) => {
  const s = parseScenario({ steps: [{ at: 3, do: 'heal' }, { at: 1, do: 'load', rate: 2 }] }, 'mine')
  t.match(s, { name: 'mine', network: 'testnet', nodes: 6, miners: 3, mineDuty: 100, topology: 'ring', latencyMs: 50, bandwidth: null, late: [] })
  t.equal(parseScenario({ mineDuty: 20 }, 'd').mineDuty, 20)
  t.same(s.steps, [{ at: 1, do: 'load', rate: 2, mix: { transfer: 1 } }, { at: 3, do: 'heal' }])
  t.same(parseScenario({ steps: [{ at: 2, do: 'rogue', node: 0, kind: 'garbage' }] }, 'r').steps, [{ at: 2, do: 'rogue', node: 0, kind: 'garbage', seconds: 20 }], 'a rogue lasts 20 s unless told')
  t.match(parseScenario({ steps: [{ at: 1, do: 'load', rate: 1, entry: 'sticky' }] }, 's').steps[0], { entry: 'sticky' })
})

t.test('each mistake is refused with where it is', async (t) => {
  const bad: Array<[unknown, RegExp]> = [
    [[], /JSON object/],
    [{ nodes: 13 }, /scenario\.nodes must be a number from 2 to 12/],
    [{ nodes: 4, miners: 5 }, /scenario\.miners/],
    [{ mineDuty: 0 }, /scenario\.mineDuty must be a number from 1 to 100/],
    [{ mineDuty: 101 }, /scenario\.mineDuty must be a number from 1 to 100/],
    [{ mineDuty: 12.5 }, /scenario\.mineDuty must be an integer/],
    [{ mineDuty: '20' }, /scenario\.mineDuty/],
    [{ topology: 'mesh' }, /topology 'mesh'/],
    [{ bandwidth: 'lots' }, /scenario\.bandwidth/],
    [{ colour: 'red' }, /unknown field 'colour'/],
    [{ steps: [{ at: 1, do: 'explode' }] }, /steps\[0\]\.do must be one of/],
    [{ steps: [{ at: 1, do: 'kill', node: 6 }] }, /steps\[0\]\.node/],
    [{ steps: [{ at: 1, do: 'kill', node: 1, whileSyncing: 'yes' }] }, /whileSyncing must be true or false/],
    [{ steps: [{ at: 1, do: 'rogue', node: 1, kind: 'nice' }] }, /kind must be garbage or false-claim/],
    [{ steps: [{ at: 1, do: 'load', rate: 1, entry: 'nearest' }] }, /entry must be random or sticky/],
    [{ steps: [{ at: 1, do: 'load', rate: 1, wallets: 2.5 }] }, /wallets must be an integer/],
    [{ steps: [{ at: 1, do: 'load', rate: 1, wallets: 4, fundCoin: 0 }] }, /fundCoin must be a number/],
    [{ steps: [{ at: 1, do: 'partition', groups: [[0, 1], [1, 2]] }] }, /name a node twice/],
    [{ steps: [{ at: 1, do: 'partition', groups: [[0, 1]] }] }, /at least two groups/],
    [{ steps: [{ at: 1, do: 'mining', nodes: [0] }] }, /\.on must be true or false/],
    [{ steps: [{ at: -1, do: 'heal' }] }, /steps\[0\]\.at/],
    [{ steps: [{ at: 1, do: 'load', rate: 1, mix: { mint: 1 } }] }, /mix must map/],
    [{ steps: [{ at: 1, do: 'links', between: [[0, 1, 2]] }] }, /must be a pair/]
  ]
  for (const [raw, re] of bad) t.throws(() => parseScenario(raw, 'x'), re, JSON.stringify(raw))
  t.ok(caught(() => loadScenario('no-such-scenario')) instanceof ScenarioError, 'an unknown scenario name is a ScenarioError')
})

t.test('flags override the scenario; a bad flag is a usage error', async (t) => {
  const s = scenarioFromFlags({ scenario: 'steady', nodes: 4, latency: 10, topology: 'line', seed: 9 })
  t.match(s, { name: 'steady', nodes: 4, miners: 3, latencyMs: 10, topology: 'line', seed: 9 })
  t.equal(scenarioFromFlags({ nodes: 2 }).miners, 2, 'miners capped at the node count')
  t.equal(scenarioFromFlags({ scenario: 'steady', mineDuty: 30 }).mineDuty, 30, '--mine-duty over the scenario\'s')
  t.equal(scenarioFromFlags({ scenario: 'hashrate' }).mineDuty, loadScenario('hashrate').mineDuty, 'no flag: the scenario\'s')
  t.match(caught(() => scenarioFromFlags({ mineDuty: Number.NaN })), { message: /scenario\.mineDuty must be a number from 1 to 100/ }, 'yargs\' NaN for a non-number')
  t.ok(caught(() => scenarioFromFlags({ mineDuty: 0 })) instanceof TestbedUsageError, '--mine-duty 0: a usage error')
  t.ok(caught(() => scenarioFromFlags({ nodes: 20 })) instanceof TestbedUsageError, '20 nodes: a usage error')
  t.match(caught(() => scenarioFromFlags({ scenario: 'steady', topology: 'random:x' })), { message: /topology 'random:x'/ })
  t.ok(caught(() => scenarioFromFlags({ scenario: 'steady', topology: 'random:x' })) instanceof TestbedUsageError, 'a bad topology: a usage error')
})
