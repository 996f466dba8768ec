// Messenger (SPEC 4.3): signup, login, chat over zero-amount transfers, the landing page.
// Provides the admin state as the `accounts` service (the admin plugin needs it) and the
// `names` directory (approved users' display names by address).
import { definePlugin } from '../../core/kernel/plugin.ts'
import { serverUrl } from '../../core/kernel/http-service.ts'
import { AccountStore } from './accounts/store.ts'
import { FAUCET_DRIP_COIN } from './faucet.ts'
import { FaucetQueue } from './accounts/faucet-queue.ts'
import { submitFromWallet } from '../../core/chain/custodial-tx.ts'
import { walletFromSeed } from '../../core/chain/wallet.ts'
import { createNameDirectory } from './name-directory.ts'
import { randomSuffix } from './accounts/secrets.ts'
import { rateRuleSchema } from '../../core/kernel/http-service.ts'
import type { RateRule } from '../../core/kernel/http-service.ts'
import { AddressRateLimit } from './rate-limit.ts'
import { registerMessengerRoutes } from './routes.ts'
import { registerChatPage } from './pages.ts'

interface MessengerConfig {
  /** always set the Secure flag on the session cookie (it is set anyway on HTTPS requests) */
  secureCookie: boolean
  /** SPEC 8: one message per this many seconds per address */
  messageIntervalSeconds: number
  /** signups waiting for approval at most; further ones answer 503 until the admin acts */
  maxPendingSignups: number
  /** per client address (issue 12 item 8); defaults a person never meets */
  rateLimits: { signup: RateRule; login: RateRule; failedInviteCodes: RateRule }
}

export default definePlugin<MessengerConfig>({
  name: 'messenger',
  description: 'signup, login, chat messages as signed zero-amount transfers, landing page',
  apiVersion: '1.0',
  provides: ['accounts', 'names', 'faucet'],
  needs: ['adminDb', 'wallets', 'chain', 'mempool', 'http', 'publicHttp'],
  configSchema: {
    properties: {
      secureCookie: { type: 'boolean', default: false },
      messageIntervalSeconds: { type: 'number', minimum: 0, default: 5 },
      maxPendingSignups: { type: 'integer', minimum: 1, default: 10_000 },
      rateLimits: {
        type: 'object',
        properties: {
          signup: rateRuleSchema({ max: 60, windowSeconds: 60 }, 'POST /api/signup requests'),
          login: rateRuleSchema({ max: 60, windowSeconds: 60 }, 'POST /api/login requests and login links'),
          failedInviteCodes: rateRuleSchema({ max: 20, windowSeconds: 600 }, 'signups with an unknown, revoked or used-up invite code')
        },
        additionalProperties: false,
        default: {}
      }
    },
    additionalProperties: false
  },
  summary: (view) => {
    const pub = serverUrl(view.service('publicHttp'))
    return pub === undefined ? [] : [{ key: 'chat', label: 'chat', value: `${pub}/`, order: 100 }]
  },
  async register (ctx) {
    const wallets = ctx.resolve('wallets')
    const chain = ctx.resolve('chain')
    const mempool = ctx.resolve('mempool')
    const txContext = { params: ctx.params, chain, mempool, cores: ctx.resolve('cores') }
    // devnet pays from its public pre-funded account, so signups get coin from block 0
    const faucetWallet = ctx.params.faucetSeed !== undefined ? walletFromSeed(Buffer.from(ctx.params.faucetSeed, 'hex')) : wallets.nodeWallet()
    const faucet = await FaucetQueue.open({
      db: ctx.resolve('adminDb'),
      chain,
      mempool,
      logger: ctx.logger,
      amount: FAUCET_DRIP_COIN,
      from: faucetWallet.address,
      pay: (address, amount) => submitFromWallet(txContext, faucetWallet, address, amount, {})
    })
    ctx.hooks.tipChanged.tap('messenger:faucet', () => {
      faucet.process().catch((err: unknown) => { ctx.logger.error({ err }, 'faucet queue failed') })
    })
    const accounts = await AccountStore.open({
      db: ctx.resolve('adminDb'),
      logger: ctx.logger,
      maxPending: ctx.config.maxPendingSignups,
      faucet: (address, name) => faucet.request(address, name),
      // a unique label per approval: a re-signup after unblock gets a fresh wallet and the
      // old wallet file stays on disk
      provisionWallet: (key) => {
        const label = `u-${key}-${randomSuffix()}`
        const w = wallets.create(label)
        return { label, address: w.address, vmAddress: w.vmAddress }
      }
    })
    const names = createNameDirectory(accounts, ctx.params.foundationAddress)
    ctx.provide('accounts', accounts)
    ctx.provide('names', names)
    ctx.provide('faucet', faucet)

    const http = ctx.resolve('http')
    const app = ctx.resolve('publicHttp')
    await http.session.ensureSupport(app)
    await http.ensureRateLimit(app)
    const { rateLimits } = ctx.config
    const loginLimit = http.clientRateLimit(app, rateLimits.login, 'logins')
    registerMessengerRoutes(app, {
      ...txContext,
      http,
      accounts,
      names,
      wallets,
      faucet,
      limiter: new AddressRateLimit(ctx.config.messageIntervalSeconds),
      secureCookie: ctx.config.secureCookie,
      clientLimits: {
        signup: http.clientRateLimit(app, rateLimits.signup, 'signups'),
        login: loginLimit,
        failedInviteCodes: http.clientRateLimit(app, rateLimits.failedInviteCodes, 'failed invite codes')
      }
    })
    await registerChatPage(http, app, accounts, ctx.config.secureCookie, loginLimit)
  }
})
