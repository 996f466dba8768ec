// A devnet node with this indexer and the policy example beside it, both listed by package
// name. The plugin's test runs `ledger run` in this folder, so the node reads this file and
// resolves the names from here.
import { defineConfig } from 'ledger-node/config'

export default defineConfig({
  network: 'devnet',
  statusIntervalSeconds: 0,
  plugins: ['storage', 'consensus', 'entropy-aggregator', 'miner', 'http', 'dashboard', 'ledger-plugin-chain-indexer', 'ledger-plugin-tx-policy'],
  'tx-policy': { memoPattern: 'casino' }
})
