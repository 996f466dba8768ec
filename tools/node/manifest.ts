// `ledger status` and `ledger peers` as a tool (no plugin of the node): a quick look at a
// running node from a shell, over its dashboard API.
import { defineTool } from '../../core/kernel/plugin.ts'
import { peersCommand, statusCommand } from './node-look.ts'

export default defineTool({
  name: 'node',
  description: 'a running node\'s status and peers, over its dashboard API',
  commands: [statusCommand, peersCommand]
})
