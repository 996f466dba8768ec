// The command-line wallet as a tool (no plugin of the node): `ledger keygen`, `ledger wallet`,
// `ledger tx`. The CLI lists every tools/*/manifest.ts; the commands import what they run.
import { defineTool } from '../../core/kernel/plugin.ts'
import { commands } from './commands.ts'

export default defineTool({
  name: 'wallet',
  description: 'wallet files and transfers from the command line, over a node\'s dashboard API',
  commands
})
