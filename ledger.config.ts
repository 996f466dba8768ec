// The standard node profile: what `npx ledger run` loads. Disable a plugin with
// { name: 'miner', enabled: false }; load your own by npm package name ('ledger-plugin-x')
// or with { path: './my-plugin' } (docs/plugins.md).
// Each plugin's section is keyed by its name; CLI flags override these values.
import { defineConfig } from './core/kernel/define-config.ts'

export default defineConfig({
  network: 'testnet',
  plugins: [
    'storage',
    'consensus',
    'entropy-aggregator',
    'miner',
    'http',
    'dashboard',
    'explorer',
    'messenger',
    'admin',
    'stream',
    'playground',
    'p2p'
  ],
  cores: { sha3: 'wasm', pow: 'wasm', vm: 'wasm', mldsa: 'wasm' }
})
