// Public explorer (SPEC 4.2): stats, blocks, transactions, addresses and receipts on the
// public server, plus a web page at /explorer. Names come from the optional `names` service.
import { definePlugin } from '../../core/kernel/plugin.ts'
import { addressLookup, nameLookup } from '../../core/views/names.ts'
import type { ViewContext } from '../../core/views/context.ts'
import { registerExplorerRoutes } from './routes.ts'
import { registerExplorerPage } from './page.ts'
import { registerVendorModules } from './vendor.ts'

export default definePlugin({
  name: 'explorer',
  description: 'public chain explorer: API and web page',
  provides: [],
  needs: ['chain', 'mempool', 'http', 'publicHttp'],
  optional: ['names', 'contractAbis'],
  configSchema: { properties: {}, additionalProperties: false },
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
    registerExplorerRoutes(app, view, () => ctx.tryResolve('contractAbis'))
    registerVendorModules(app)
    await registerExplorerPage(ctx.resolve('http'), app)
  }
})
