// `ledger testbed` as a tool (no plugin of the node): a network of real nodes under test, in
// testbed/ (docs/testbed.md). The handler imports the test bed when it runs.
import { defineCommand, defineTool } from '../../core/kernel/plugin.ts'
import { UsageError } from '../../core/kernel/errors.ts'
import type { TestbedFlags } from '../../testbed/index.ts'

const testbedCommand = defineCommand<TestbedFlags & { keep: boolean }>({
  command: 'testbed',
  describe: 'run a network of real nodes on loopback through shaped links, play a scenario, report its figures (docs/testbed.md)',
  builder: (y) => y
    .option('scenario', { type: 'string', describe: 'steady, partition, churn, late-join, hashrate, relay, or a scenario JSON file' })
    .option('nodes', { type: 'number', describe: 'nodes (2-12) [default: the scenario\'s, else 6]' })
    .option('miners', { type: 'number', describe: 'how many of them mine, one thread each' })
    .option('mine-duty', { type: 'number', describe: 'percent (1-100) of each miner\'s thread\'s time spent hashing (ledger run --mine-duty) [default: the scenario\'s, else 100]' })
    .option('topology', { type: 'string', describe: 'line, ring, star, full or random:<degree>' })
    .option('latency', { type: 'number', describe: 'one-way link latency, ms' })
    .option('jitter', { type: 'number', describe: 'latency spread ±, ms' })
    .option('bandwidth', { type: 'string', describe: 'per link each way, e.g. 10mbit, 2MB' })
    .option('seed', { type: 'number', describe: 'seed of every random choice (topology, jitter, load)' })
    .option('duration', { type: 'number', describe: 'seconds the steps run before the network settles' })
    .option('out', { type: 'string', describe: 'report directory [default: ./testbed-reports/<scenario>-<time>]' })
    .option('keep', { type: 'boolean', default: false, describe: 'keep the nodes\' data dirs' })
    .option('report', { type: 'string', describe: 'recompute the figures and HTML of this report.json instead of running' }),
  async handler (a) {
    const { runTestbed, TestbedUsageError } = await import('../../testbed/index.ts')
    try {
      await runTestbed(a)
    } catch (err) {
      if (err instanceof TestbedUsageError) throw new UsageError(err.message)
      throw err
    }
  }
})

export default defineTool({
  name: 'testbed',
  description: 'a network of real nodes under test: shaped links, scenarios, figures (testbed/, docs/testbed.md)',
  commands: [testbedCommand]
})
