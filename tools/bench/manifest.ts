// `ledger bench` as a tool (no plugin of the node): the benchmarks in bench/. The handler
// imports the bench when it runs.
import { defineCommand, defineTool } from '../../core/kernel/plugin.ts'
import { UsageError } from '../../core/kernel/errors.ts'

interface BenchArgs { only?: string; json?: string; markdown?: string; runs: number; quick: boolean }

const benchCommand = defineCommand<BenchArgs>({
  command: 'bench',
  describe: 'benchmark the WASM and JS cores against their anchors',
  builder: (y) => y
    .option('only', { type: 'string', describe: 'comma-separated families: pow,sha3,mldsa,vm,block,sync,http,attest,cli' })
    .option('json', { type: 'string', describe: 'also write the results as JSON to this file' })
    .option('markdown', { type: 'string', describe: 'also rewrite the measured part of this Markdown file (BENCHMARKS.md), keeping the prose around it' })
    .option('runs', { type: 'number', default: 5, describe: 'measured runs per figure (min / median / max)' })
    .option('quick', { type: 'boolean', default: false, describe: 'tiny sizes (a smoke run, numbers meaningless)' }),
  async handler (a) {
    const { runBench, BenchUsageError } = await import('../../bench/index.ts')
    try {
      await runBench({ only: a.only?.split(',').map((s) => s.trim()).filter((s) => s.length > 0), json: a.json, markdown: a.markdown, runs: a.runs, quick: a.quick })
    } catch (err) {
      if (err instanceof BenchUsageError) throw new UsageError(err.message)
      throw err
    }
  }
})

export default defineTool({
  name: 'bench',
  description: 'benchmarks of the cores, the node and the CLI (bench/, BENCHMARKS.md)',
  commands: [benchCommand]
})
