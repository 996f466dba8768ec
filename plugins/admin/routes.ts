// Admin endpoints (SPEC 4.4). Every mutation is durable before its response (the accounts
// store writes synchronously); unknown targets answer 404 {"error": "<what is unknown>"}.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { HttpError } from '../../core/kernel/errors.ts'
import { bohmToCoin } from '../../core/chain/money.ts'
import type { ChainService } from '../../core/chain/chain-service.ts'
import type { AccountService, FaucetService } from '../../core/kernel/account-service.ts'
import { INVITE_DEFAULT_USES, INVITE_MAX_USES } from '../../core/kernel/account-service.ts'

export interface AdminDeps {
  accounts: AccountService
  chain: ChainService
  faucet?: FaucetService
}

type Body = Record<string, unknown>
const bodyOf = (request: FastifyRequest): Body =>
  request.body !== null && typeof request.body === 'object' && !Array.isArray(request.body) ? request.body as Body : {}

async function accountCall<T> (accounts: AccountService, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (err) {
    throw accounts.httpErrorOf(err)
  }
}

/** max_uses may arrive as a number or, from a form, as digits */
function usesOf (v: unknown): unknown {
  return typeof v === 'string' && /^\d{1,6}$/.test(v) ? Number(v) : v
}

/** The host a client reached us by; an HTTP/1.0 request may send no Host header, then the
 *  address and port the connection arrived on stand in, so the link is never `http:///...`. */
function hostOf (request: FastifyRequest): string {
  const host = request.host
  if (typeof host === 'string' && host.length > 0) return host
  const address = request.socket?.localAddress
  const port = request.socket?.localPort
  if (typeof address !== 'string' || address.length === 0) return 'localhost'
  const bare = address.startsWith('::ffff:') ? address.slice(7) : address
  const shown = bare.includes(':') ? `[${bare}]` : bare
  return typeof port === 'number' ? `${shown}:${port}` : shown
}

export function signupUrl (request: FastifyRequest, code: string): string {
  return `${request.protocol}://${hostOf(request)}/?invite=${encodeURIComponent(code)}`
}

/** Documents a JSON body for OpenAPI without validating it: the handlers check the fields so
 *  that a wrong body gets the spec's exact error text, not a schema message. */
function bodyDoc (fields: Record<string, string>): { description: string } {
  return { description: `JSON object: ${Object.entries(fields).map(([k, v]) => `${k} (${v})`).join(', ')}` }
}

const tags = ['admin']
const errorSchema = { type: 'object', properties: { error: { type: 'string' } } }
const nameBody = bodyDoc({ name: 'user name' })
const errors = { 400: errorSchema, 401: errorSchema, 404: errorSchema }

/** GET /api/admin/pending pages: the queue holds up to messenger.maxPendingSignups */
export const PENDING_DEFAULT_LIMIT = 100
export const PENDING_MAX_LIMIT = 1000

const pendingQuery = {
  type: 'object',
  properties: {
    offset: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0, description: 'signups to skip, 0 = oldest' },
    limit: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: PENDING_DEFAULT_LIMIT, description: `page size, default ${PENDING_DEFAULT_LIMIT}, at most ${PENDING_MAX_LIMIT} (larger values are clamped)` }
  },
  additionalProperties: false
} as const

export function registerAdminRoutes (app: FastifyInstance, { accounts, chain, faucet }: AdminDeps): void {
  if (faucet !== undefined) registerFaucetRoutes(app, accounts, chain, faucet)

  app.get('/api/admin/pending', {
    schema: { tags, summary: 'pending signups, oldest first (FIFO), a page at a time', querystring: pendingQuery, response: errors }
  }, async (request) => {
    const q = request.query as { offset: number; limit: number }
    const limit = Math.min(q.limit, PENDING_MAX_LIMIT)
    const { pending, total } = accounts.pendingPage(q.offset, limit)
    return { pending, pagination: { offset: q.offset, limit, total, has_more: q.offset + pending.length < total } }
  })

  app.post('/api/admin/approve', { schema: { tags, summary: 'approve a pending signup: wallet, 100-coin faucet drip, login token', body: nameBody, response: errors } }, async (request) => {
    const { user, faucetTx } = await accountCall(accounts, () => accounts.approve(bodyOf(request).name))
    return { status: 'approved', name: user.name, address: user.address, login_token: user.login_token, faucet_tx: faucetTx }
  })

  app.post('/api/admin/block', {
    schema: { tags, summary: 'block a name: removes it from pending and approved, ends its sessions', body: bodyDoc({ name: 'user name', reason: 'optional, kept for the audit trail' }), response: errors }
  }, async (request) => {
    const body = bodyOf(request)
    const record = await accountCall(accounts, () => accounts.block(body.name, body.reason))
    return { status: 'blocked', name: record.name }
  })

  app.post('/api/admin/unblock', { schema: { tags, summary: 'unblock a name (it must sign up again)', body: nameBody, response: errors } }, async (request) => {
    const record = await accountCall(accounts, () => accounts.unblock(bodyOf(request).name))
    return { status: 'unblocked', name: record.name }
  })

  app.get('/api/admin/users', { schema: { tags, summary: 'approved users (with login tokens) and blocked names', response: errors } }, async () => ({
    users: accounts.users().map((u) => ({ name: u.name, address: u.address, balance: bohmToCoin(chain.getAccount(u.address).balance), joined_at: u.joined_at, login_token: u.login_token })),
    // SPEC 4.4: blocked is a list of names; the records (when, why) ride along for the admin UI
    blocked: accounts.blockedList().map((b) => b.name),
    blocked_records: accounts.blockedList()
  }))

  app.post('/api/admin/invites/create', {
    schema: { tags, summary: 'create an invite code', body: bodyDoc({ max_uses: `integer 1-${INVITE_MAX_USES}, default ${INVITE_DEFAULT_USES}` }), response: errors }
  }, async (request) => {
    const invite = await accountCall(accounts, () => accounts.createInvite(usesOf(bodyOf(request).max_uses)))
    return { code: invite.code, max_uses: invite.max_uses, signup_url: signupUrl(request, invite.code) }
  })

  app.get('/api/admin/invites', { schema: { tags, summary: 'every invite code ever issued', response: errors } }, async () => ({ invites: accounts.invites() }))

  app.post('/api/admin/invites/revoke', { schema: { tags, summary: 'revoke an invite code', body: bodyDoc({ code: 'CODE-XXXXXX' }), response: errors } }, async (request) => {
    const invite = await accountCall(accounts, () => accounts.revokeInvite(bodyOf(request).code))
    return { status: 'revoked', code: invite.code }
  })

  app.post('/api/admin/tokens/create', {
    schema: {
      tags,
      summary: 'create an API token for an approved user; the raw token is returned once',
      body: bodyDoc({ label: '1-64 chars', name: 'approved user the token acts as', scope: 'comma-separated, default playground' }),
      response: errors
    }
  }, async (request) => {
    const body = bodyOf(request)
    const { token, record } = await accountCall(accounts, () => accounts.createToken({ label: body.label, name: body.name, scope: body.scope }))
    return { token, id: record.id, label: record.label, name: record.name, scope: record.scope, note: 'store this token now: only its hash is kept, it cannot be shown again' }
  })

  app.get('/api/admin/tokens', { schema: { tags, summary: 'API token records (never the token or its hash)', response: errors } }, async () => ({ tokens: accounts.tokens() }))

  app.post('/api/admin/tokens/revoke', {
    schema: { tags, summary: 'revoke an API token by raw token, token_hash or listing id', body: bodyDoc({ token: 'raw token', token_hash: '64 hex', id: 'id from the listing' }), response: errors }
  }, async (request) => {
    const body = bodyOf(request)
    const record = await accountCall(accounts, () => accounts.revokeToken({ token: body.token, token_hash: body.token_hash, id: body.id }))
    return { status: 'revoked', token_hash: record.token_hash }
  })
}

/** the faucet queue: drips waiting for the faucet wallet, and the admin's "pay again" */
function registerFaucetRoutes (app: FastifyInstance, accounts: AccountService, chain: ChainService, faucet: FaucetService): void {
  app.get('/api/admin/faucet', { schema: { tags, summary: 'faucet wallet and the drips not yet in a block (waiting in line, or sent)', response: errors } }, async () => ({
    wallet: { address: faucet.from, balance: bohmToCoin(chain.getAccount(faucet.from).balance) },
    drip_amount: faucet.amount,
    drips: faucet.list()
  }))

  app.post('/api/admin/faucet/pay', {
    schema: { tags, summary: 'pay again: try the user\'s waiting drip now, ahead of the line, or queue a new drip if none is outstanding', body: nameBody, response: errors }
  }, async (request) => {
    const name = bodyOf(request).name
    if (typeof name !== 'string' || name.length === 0) throw new HttpError(400, 'name is required')
    const user = accounts.user(name)
    if (user === undefined) throw new HttpError(404, `no approved user named ${name}`)
    const drip = await faucet.payAgain(user.address, user.name)
    return { status: drip.status === 'sent' ? 'sent' : 'waiting', name: user.name, address: user.address, tx_id: drip.tx_id, position: drip.position, reason: drip.last_error }
  })

  app.post('/api/admin/faucet/cancel', {
    schema: { tags, summary: 'drop the user\'s waiting drip (a drip already sent is left to confirm)', body: nameBody, response: errors }
  }, async (request) => {
    const name = bodyOf(request).name
    if (typeof name !== 'string' || name.length === 0) throw new HttpError(400, 'name is required')
    const user = accounts.user(name)
    if (user === undefined) throw new HttpError(404, `no approved user named ${name}`)
    const dropped = await faucet.cancel(user.address)
    if (dropped === 0) throw new HttpError(404, `no waiting faucet drip for ${user.name}`)
    return { status: 'cancelled', name: user.name, dropped }
  })
}
