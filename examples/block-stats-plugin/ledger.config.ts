// A devnet node with this plugin, listed by its package name. The plugin's test runs
// `ledger run` in this folder, so the node reads this file and resolves the name from here
// (a package may import itself by its own name). An operator's node lists it the same way
// after `npm install ledger-plugin-block-stats` next to their ledger.config.ts.
import { defineConfig } from 'ledger-node/config'

export default defineConfig({
  network: 'devnet',
  statusIntervalSeconds: 0,
  plugins: ['storage', 'consensus', 'entropy-aggregator', 'miner', 'http', 'dashboard', 'ledger-plugin-block-stats'],
  // the plugin's section is keyed by its manifest name
  'block-stats': { logEvery: 1 }
})
