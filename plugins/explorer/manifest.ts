// Public explorer (SPEC 4.2): stats, blocks, transactions, addresses and receipts on the
// public server, plus a web page at /explorer. Names come from the optional `names` service.
import { definePlugin } from '../../core/kernel/plugin.ts'
import { serverUrl } from '../../core/kernel/http-service.ts'
import { addressLookup, nameLookup } from '../../core/views/names.ts'
import type { ViewContext } from '../../core/views/context.ts'
import { registerExplorerRoutes } from './routes.ts'
import { registerExplorerPage } from './page.ts'
import { registerVendorModules } from './vendor.ts'
import { DEFAULT_CACHE, ExplorerCache } from './response-cache.ts'

interface ExplorerConfig {
  /** bytes of ready-to-send block answers kept (0: none) */
  blockCacheBytes: number
  /** bytes of ready-to-send transaction answers kept (0: none) */
  txCacheBytes: number
}

export default definePlugin<ExplorerConfig>({
  name: 'explorer',
  description: 'public chain explorer: API and web page',
  apiVersion: '1.0',
  provides: [],
  needs: ['chain', 'mempool', 'http', 'publicHttp'],
  optional: ['names', 'contractAbis'],
  configSchema: {
    properties: {
      blockCacheBytes: { type: 'integer', minimum: 0, default: DEFAULT_CACHE.blockBytes },
      txCacheBytes: { type: 'integer', minimum: 0, default: DEFAULT_CACHE.txBytes }
    },
    additionalProperties: false
  },
  summary: (view) => {
    const pub = serverUrl(view.service('publicHttp'))
    return pub === undefined ? [] : [{ key: 'explorer', label: 'explorer', value: `${pub}/explorer`, order: 120 }]
  },
  async register (ctx) {
    const view: ViewContext = {
      chain: ctx.resolve('chain'),
      mempool: ctx.resolve('mempool'),
      params: ctx.params,
      // looked up per request: a names provider may be added by a plugin loaded later
      nameOf: nameLookup(() => ctx.tryResolve('names'), ctx.params.foundationAddress),
      addressOfName: addressLookup(() => ctx.tryResolve('names'), ctx.params.foundationAddress)
    }
    const app = ctx.resolve('publicHttp')
    // answers of main-chain blocks and confirmed transactions, ready to send (issue 15)
    const cache = new ExplorerCache({ blockBytes: ctx.config.blockCacheBytes, txBytes: ctx.config.txCacheBytes })
    cache.follow(ctx.hooks)
    registerExplorerRoutes(app, ctx.resolve('http').chainViews, view, () => ctx.tryResolve('contractAbis'), cache)
    registerVendorModules(app)
    await registerExplorerPage(ctx.resolve('http'), app)
  }
})
