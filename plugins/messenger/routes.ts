// Messenger endpoints (SPEC 4.3): signup, login, me, send, messages. Bodies are checked in
// the handlers, not by schema, because the spec fixes the exact error texts.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { HttpError } from '../../core/kernel/errors.ts'
import { bohmToCoin } from '../../core/chain/money.ts'
import type { ChainService } from '../../core/chain/chain-service.ts'
import type { MempoolService } from '../../core/chain/mempool-service.ts'
import type { NameDirectory } from '../../core/kernel/services.ts'
import type { AccountStore } from './accounts/store.ts'
import { SESSION_IDLE_SECONDS } from './accounts/store.ts'
import type { FaucetQueue } from './accounts/faucet-queue.ts'
import type { ApprovedUser } from '../../core/kernel/account-service.ts'
import { AccountError, AccountErrorCode, toHttpError } from './accounts/errors.ts'
import type { ClientRateLimit, HttpService } from '../../core/kernel/http-service.ts'
import { userOfCredentials } from './accounts/credentials.ts'
import { messageLimit, recentMessages, MESSAGES_MAX_LIMIT } from './messages.ts'
import { sendMessage } from './send.ts'
import type { SendDeps } from './send.ts'

export interface MessengerDeps extends SendDeps {
  http: HttpService
  accounts: AccountStore
  names: NameDirectory
  chain: ChainService
  mempool: MempoolService
  secureCookie: boolean
  /** the signup drip's state, shown in the chat header */
  faucet?: FaucetQueue
  /** per client address: requests to signup and login, failed invite codes */
  clientLimits: { signup: ClientRateLimit; login: ClientRateLimit; failedInviteCodes: ClientRateLimit }
}

const FAILED_INVITE: ReadonlySet<string> = new Set([AccountErrorCode.INVITE_INVALID, AccountErrorCode.INVITE_EXHAUSTED])
const offersInvite = (body: Body): boolean => typeof body.invite_code === 'string' && body.invite_code.trim().length > 0

type Body = Record<string, unknown>
const bodyOf = (request: FastifyRequest): Body =>
  request.body !== null && typeof request.body === 'object' && !Array.isArray(request.body) ? request.body as Body : {}

const NO_SESSION = 'no session present'

/** Documents a JSON body for OpenAPI without validating it: the handlers check the fields so
 *  that a wrong body gets the spec's exact error text, not a schema message. */
function bodyDoc (fields: Record<string, string>): { description: string } {
  return { description: `JSON object: ${Object.entries(fields).map(([k, v]) => `${k} (${v})`).join(', ')}` }
}

const tags = ['messenger']
const errorSchema = { type: 'object', properties: { error: { type: 'string' } } }

export function requireSession (accounts: AccountStore, sessionToken: string | undefined): ApprovedUser {
  const user = accounts.sessionUser(sessionToken)
  if (user !== undefined) return user
  // a session a block revoked is no session (SPEC 5 rule 5, SPEC 7's 401); the page asks
  // GET /api/session, whose `revoked` tells its user why
  throw new HttpError(401, NO_SESSION)
}

async function accountCall<T> (fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (err) {
    throw toHttpError(err)
  }
}

export function registerMessengerRoutes (app: FastifyInstance, deps: MessengerDeps): void {
  const sessionTokenOf = (request: FastifyRequest): string | undefined => deps.http.session.tokenOf(request)
  const { accounts, clientLimits } = deps

  app.post('/api/signup', {
    onRequest: clientLimits.signup.hook,
    schema: {
      tags,
      summary: 'sign up: queued for admin approval, or approved at once with a valid invite code',
      body: bodyDoc({ name: '2-32 chars of A-Z a-z 0-9 _ -', invite_code: 'optional invite code CODE-XXXXXX' }),
      response: { 400: errorSchema, 403: errorSchema, 409: errorSchema, 429: errorSchema, 503: errorSchema }
    }
  }, async (request, reply) => {
    const body = bodyOf(request)
    // guessing invite codes: a client that failed too often may not try another code
    if (offersInvite(body)) await clientLimits.failedInviteCodes.ensureUnder(request)
    const result = await accountCall(async () => {
      try {
        return await accounts.signup({ name: body.name, inviteCode: body.invite_code, ip: request.ip })
      } catch (err) {
        if (err instanceof AccountError && FAILED_INVITE.has(err.code)) await clientLimits.failedInviteCodes.count(request)
        throw err
      }
    })
    if (result.status === 'pending') {
      return { status: 'pending', message: `signup received: ${result.signup.name} is waiting for an admin to approve it` }
    }
    deps.http.session.set(reply, result.sessionToken, { maxAgeSeconds: SESSION_IDLE_SECONDS, secure: deps.secureCookie || deps.http.cameOverHttps(request) })
    const u = result.user
    return { status: 'approved', auto: true, name: u.name, address: u.address, login_token: u.login_token, invite_code: result.invite.code, faucet_tx: result.faucetTx }
  })

  app.post('/api/login', {
    onRequest: clientLimits.login.hook,
    schema: {
      tags,
      summary: 'redeem a login token for a session cookie',
      body: bodyDoc({ name: 'user name', token: 'login token' }),
      response: { 400: errorSchema, 401: errorSchema, 403: errorSchema, 429: errorSchema }
    }
  }, async (request, reply) => {
    const body = bodyOf(request)
    const { user, sessionToken } = await accountCall(() => accounts.login(body.name, body.token))
    deps.http.session.set(reply, sessionToken, { maxAgeSeconds: SESSION_IDLE_SECONDS, secure: deps.secureCookie || deps.http.cameOverHttps(request) })
    return { status: 'ok', name: user.name }
  })

  app.post('/api/logout', { schema: { tags, summary: 'end this session' } }, async (request, reply) => {
    const token = sessionTokenOf(request)
    if (token !== undefined) await accounts.endSession(token)
    deps.http.session.clear(reply)
    return { status: 'ok' }
  })

  // Lets a page learn whether it is signed in without a 401 in the browser console: every
  // outcome is a 200. `revoked` says a block ended this cookie's session.
  app.get('/api/session', {
    schema: {
      tags,
      summary: 'whether this request carries a live session (cookie) or a playground API token; always 200',
      response: {
        200: {
          type: 'object',
          properties: { signed_in: { type: 'boolean' }, name: { type: ['string', 'null'] }, via: { type: ['string', 'null'], enum: ['session', 'token', null] }, revoked: { type: 'boolean' } }
        }
      }
    }
  }, async (request) => {
    const bySession = accounts.sessionUser(sessionTokenOf(request))
    if (bySession !== undefined) return { signed_in: true, name: bySession.name, via: 'session', revoked: false }
    const byToken = userOfCredentials(accounts, sessionTokenOf(request), request.headers.authorization, 'playground')
    if (byToken !== undefined) return { signed_in: true, name: byToken.name, via: 'token', revoked: false }
    return { signed_in: false, name: null, via: null, revoked: accounts.revokedSession(sessionTokenOf(request)) !== undefined }
  })

  app.get('/api/me', { schema: { tags, summary: 'the logged-in user', response: { 401: errorSchema } } }, async (request) => {
    const user = requireSession(accounts, sessionTokenOf(request))
    // faucet: null when no drip is outstanding; else waiting (position in line) or sent
    return { name: user.name, address: user.address, balance: bohmToCoin(deps.chain.getAccount(user.address).balance), faucet: deps.faucet?.stateOf(user.address) ?? null }
  })

  app.post('/api/send', {
    schema: {
      tags,
      summary: 'send a chat message: a zero-amount transfer to yourself signed with your wallet, text in data.memo',
      body: bodyDoc({ text: '1-512 chars' }),
      response: { 400: errorSchema, 401: errorSchema, 403: errorSchema, 429: errorSchema }
    }
  }, async (request) => {
    const user = requireSession(accounts, sessionTokenOf(request))
    const tx = sendMessage(deps, user, bodyOf(request).text)
    return { status: 'submitted', tx_id: tx.transaction_id, pending: true }
  })

  app.get('/api/messages', {
    schema: {
      tags,
      summary: 'chat messages, confirmed and pending, newest first',
      querystring: { type: 'object', properties: { limit: { type: 'integer', description: `default 50, at most ${MESSAGES_MAX_LIMIT}` } } },
      response: { 401: errorSchema }
    }
  }, async (request) => {
    requireSession(accounts, sessionTokenOf(request))
    const { limit } = request.query as { limit?: number }
    const messages = await recentMessages(deps, messageLimit(limit))
    return { count: messages.length, messages }
  })
}
