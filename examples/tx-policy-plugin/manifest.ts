// A policy plugin: the node refuses what this says, before the mempool or a relay sees it.
// Loaded by package name (ledger.config.ts: plugins: [..., 'ledger-plugin-tx-policy']).
import { definePlugin } from 'ledger-node/plugin'
import { judge } from './policy.ts'
import type { PolicySettings } from './policy.ts'

export default definePlugin<PolicySettings>({
  name: 'tx-policy',
  description: 'refuses transactions by fee per byte, memo pattern or sender list',
  apiVersion: '1.0',
  provides: [],
  needs: [],
  configSchema: {
    properties: {
      minFeePerByte: { type: 'number', minimum: 0, default: 0 },
      memoPattern: { type: ['string', 'null'], maxLength: 200, default: null },
      blockedSenders: { type: 'array', items: { type: 'string', pattern: '^[0-9a-f]{32}$' }, maxItems: 10_000, default: [] }
    },
    additionalProperties: false
  },
  register (ctx) {
    const settings = ctx.config
    // compiled once; a bad pattern stops the node at boot with the reason
    const memo = settings.memoPattern === null ? null : new RegExp(settings.memoPattern, 'u')
    ctx.hooks.txAdmission.tap('tx-policy', (tx) => judge(tx, settings, memo))
  }
})
