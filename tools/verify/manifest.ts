// `ledger verify` as a tool (no plugin of the node): re-verifies a remote node's chain over
// its public HTTP API. The handler imports the verifier when it runs.
import { defineCommand, defineTool } from '../../core/kernel/plugin.ts'
import { UsageError } from '../../core/kernel/errors.ts'

interface VerifyArgs { node: string; from?: number; to?: number; core?: string[] }

const verifyCommand = defineCommand<VerifyArgs>({
  command: 'verify',
  describe: "re-verify a node's chain over its public HTTP API (PoW, difficulty, merkle roots, attestations, beacon signatures)",
  builder: (y) => y
    .option('node', { type: 'string', demandOption: true, describe: "the node's public base URL (explorer, port 8081 by default), e.g. http://127.0.0.1:8081" })
    .option('from', { type: 'number', describe: 'first height to verify [default: 1]' })
    .option('to', { type: 'number', describe: "last height to verify [default: the node's tip]" })
    .option('core', { type: 'string', array: true, describe: 'cores that hash and verify, as for `ledger run` (e.g. --core bls=noble,sha3=js)' }),
  async handler (a) {
    const { coreFlag } = await import('../../core/kernel/core-flag.ts')
    const cores = a.core !== undefined && a.core.length > 0 ? await coreFlag(a.core) : {}
    for (const k of ['from', 'to'] as const) {
      const v = a[k]
      if (v !== undefined && (!Number.isSafeInteger(v) || v < 0)) throw new UsageError(`--${k} must be a block height (a non-negative integer)`)
    }
    const { runVerify, VerifySourceError } = await import('./verify.ts')
    const tty = process.stderr.isTTY
    try {
      process.exitCode = await runVerify({
        node: a.node,
        from: a.from,
        to: a.to,
        cores,
        out: (line) => { if (tty) process.stderr.write('\n'); console.log(line) },
        progress: (line) => { process.stderr.write(tty ? `\r${line}\u001b[K` : `${line}\n`) }
      })
    } catch (err) {
      if (err instanceof VerifySourceError) throw new UsageError(err.message)
      throw err
    }
  }
})

export default defineTool({
  name: 'verify',
  description: 'verify a remote node\'s chain from its public API',
  commands: [verifyCommand]
})
