// Contract playground (SPEC 4.5): compile, deploy, call, receipts, the user's contracts and
// the bundled examples on the public server, plus the web page at /playground. Deploys and
// calls are real signed transactions from the user's custodial wallet; the user comes from
// the messenger's session cookie or an admin-issued API token of scope playground.
import { definePlugin } from '../../core/kernel/plugin.ts'
import { serverUrl } from '../../core/kernel/http-service.ts'
import { rateRuleSchema } from '../../core/kernel/http-service.ts'
import type { RateRule } from '../../core/kernel/http-service.ts'
import { ContractStore } from './contract-store.ts'
import { registerPlaygroundRoutes } from './routes.ts'
import { registerPlaygroundPage, PLAYGROUND_PAGE } from './page.ts'

interface PlaygroundConfig {
  /** per client address (issue 12 item 8): compiles, i.e. compile and deploy requests */
  rateLimits: { compile: RateRule; query: RateRule }
}

export default definePlugin<PlaygroundConfig>({
  name: 'playground',
  description: 'contract playground: compile, deploy, call, receipts, examples, web page at /playground',
  apiVersion: '1.0',
  provides: ['contractAbis'],
  needs: ['accounts', 'wallets', 'chain', 'mempool', 'adminDb', 'http', 'publicHttp'],
  configSchema: {
    properties: {
      rateLimits: {
        type: 'object',
        properties: {
          compile: rateRuleSchema({ max: 60, windowSeconds: 60 }, 'POST /api/playground/compile and /deploy requests'),
          // a query runs the VM for free (gas-capped): bounded per client like a compile
          query: rateRuleSchema({ max: 120, windowSeconds: 60 }, 'POST /api/playground/query requests')
        },
        additionalProperties: false,
        default: {}
      }
    },
    additionalProperties: false
  },
  summary: (view) => {
    const pub = serverUrl(view.service('publicHttp'))
    return pub === undefined ? [] : [{ key: 'playground', label: 'playground', value: `${pub}/playground`, order: 130 }]
  },
  async register (ctx) {
    const http = ctx.resolve('http')
    const app = ctx.resolve('publicHttp')
    await http.session.ensureSupport(app)
    await http.ensureRateLimit(app)
    const contracts = new ContractStore(ctx.resolve('adminDb'))
    ctx.provide('contractAbis', { abiAt: (address) => contracts.abiAt(address) })
    // a playground deploy's receipt names the address its ABI now belongs to (explorer logs)
    ctx.hooks.receiptWritten.tap('playground', ({ tx_id: txId, receipt }) => {
      if (receipt.type !== 'deploy' || !receipt.success || receipt.contract === undefined) return
      contracts.deployed(txId, receipt.contract).catch((err: unknown) => { ctx.logger.error({ err, tx_id: txId }, 'could not record the ABI of a deployed contract') })
    })
    registerPlaygroundRoutes(app, {
      compileLimit: http.clientRateLimit(app, ctx.config.rateLimits.compile, 'compiles'),
      queryLimit: http.clientRateLimit(app, ctx.config.rateLimits.query, 'queries'),
      sessionTokenOf: (request) => http.session.tokenOf(request),
      params: ctx.params,
      chain: ctx.resolve('chain'),
      mempool: ctx.resolve('mempool'),
      cores: ctx.resolve('cores'),
      wallets: ctx.resolve('wallets'),
      accounts: ctx.resolve('accounts'),
      contracts,
      logger: ctx.logger
    })
    await registerPlaygroundPage(http, app)
    ctx.logger.info({ page: PLAYGROUND_PAGE }, 'contract playground ready')
  }
})
