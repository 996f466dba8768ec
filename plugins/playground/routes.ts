// Playground endpoints (SPEC 4.5): compile, deploy, call, receipt, contracts, examples. Every
// one needs the session cookie or a Bearer API token of scope playground (SPEC 5; the cookie
// wins when both come). Bodies are checked in the handlers so each refusal gets the spec's
// exact text (SPEC 7).
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { AccountService, ApprovedUser } from '../../core/kernel/account-service.ts'
import { bohmToCoin } from '../../core/chain/money.ts'
import { EXAMPLES } from '../../core/contracts/index.ts'
import type { Logger } from 'pino'
import type { ClientRateLimit } from '../../core/kernel/http-service.ts'
import { playgroundErrors } from './errors.ts'
import { compileSource, sourceOf, submitCall, submitDeploy } from './submit.ts'
import type { Body, SubmitDeps } from './submit.ts'
import { playgroundReceipt } from './receipt.ts'
import { runQuery, QUERY_GAS_CAP } from './query.ts'
import type { Cores } from '../../core/cores/cores.ts'
import type { ContractRecord, ContractStore } from './contract-store.ts'

export interface PlaygroundDeps extends SubmitDeps {
  accounts: AccountService
  contracts: ContractStore
  logger: Logger
  /** compile and deploy both run the compiler: one per-address budget for the two */
  compileLimit: ClientRateLimit
  /** POST /api/playground/query: free VM runs, counted per client */
  queryLimit: ClientRateLimit
  /** the request's session cookie, if any (the `http` service reads it) */
  sessionTokenOf: (request: FastifyRequest) => string | undefined
  /** the kernel's cores: queries run on its VM core */
  cores?: Pick<Cores, 'vm' | 'sha3' | 'mldsa'>
}

export const PLAYGROUND_ROUTES = [
  '/api/playground/compile',
  '/api/playground/deploy',
  '/api/playground/call',
  '/api/playground/query',
  '/api/playground/receipt/:tx_id',
  '/api/playground/contracts',
  '/api/playground/examples'
] as const

// auth for every route: session cookie, or Authorization: Bearer <API token> of scope playground
const tags = ['playground']
const errorSchema = {
  type: 'object',
  additionalProperties: true,
  properties: {
    error: { type: 'string' },
    phase: { type: 'string', description: 'compile or encode' },
    line: { type: 'integer', description: 'compile errors: 1-based line' },
    column: { type: 'integer', description: 'compile errors: 1-based column' }
  }
}
const errors = { 400: errorSchema, 401: errorSchema, 429: errorSchema }

const bodyOf = (request: FastifyRequest): Body =>
  request.body !== null && typeof request.body === 'object' && !Array.isArray(request.body) ? request.body as Body : {}

/** Documents a JSON body for OpenAPI without validating it (the handlers check the fields). */
function bodyDoc (fields: Record<string, string>): { description: string } {
  return { description: `JSON object: ${Object.entries(fields).map(([k, v]) => `${k} (${v})`).join(', ')}` }
}

export function registerPlaygroundRoutes (app: FastifyInstance, deps: PlaygroundDeps): void {
  const { accounts, chain, mempool } = deps

  const userOf = (request: FastifyRequest): ApprovedUser => {
    const user = accounts.userOfCredentials(deps.sessionTokenOf(request), request.headers.authorization, 'playground')
    if (user === undefined) throw playgroundErrors.notLoggedIn()
    return user
  }

  app.post('/api/playground/compile', {
    onRequest: deps.compileLimit.hook,
    schema: {
      tags,
      summary: 'compile contract source to bytecode and ABI (no chain change, no gas)',
      body: bodyDoc({ source: 'contract source text', example: 'or a bundled example id instead of source' }),
      response: errors
    }
  }, async (request) => {
    userOf(request)
    const { bytecode_hex, bytecode_size, abi } = compileSource(sourceOf(bodyOf(request)))
    return { bytecode_hex, bytecode_size, abi }
  })

  app.post('/api/playground/deploy', {
    onRequest: deps.compileLimit.hook,
    schema: {
      tags,
      summary: 'compile and submit a deploy transaction paid by the user\'s wallet; poll the receipt',
      body: bodyDoc({
        source: 'contract source text (or example: a bundled example id)',
        gas_limit: 'optional, default 1000000; fee = gas_limit x 10^9 bohm',
        value: 'optional coin credited to the contract, default 0',
        init_calldata: 'optional, must be empty in this version'
      }),
      response: errors
    }
  }, async (request) => {
    const user = userOf(request)
    const d = submitDeploy(deps, user, bodyOf(request))
    const record: ContractRecord = {
      tx_id: d.tx.transaction_id,
      owner: user.address,
      abi: d.compiled.abi,
      submitted_at: d.tx.timestamp,
      gas_limit: d.gasLimit,
      bytecode_size: d.compiled.bytecode_size
    }
    try {
      await deps.contracts.add(record)
    } catch (err) {
      // the deploy is in the mempool either way; only the user's list misses it
      deps.logger.error({ err, tx_id: record.tx_id }, 'could not record the playground contract')
    }
    return {
      status: 'submitted',
      pending: true,
      tx_id: d.tx.transaction_id,
      gas_limit: d.gasLimit,
      fee: d.fee,
      value: d.value,
      bytecode_size: d.compiled.bytecode_size,
      abi: d.compiled.abi
    }
  })

  app.post('/api/playground/call', {
    schema: {
      tags,
      summary: 'encode a call (selector + 32-byte arguments) and submit it as a transaction paid by the user\'s wallet',
      body: bodyDoc({
        contract_addr: '40-hex contract address, with or without 0x',
        selector: '1-byte function selector from the ABI',
        args: 'argument values in declaration order (omit for a method without arguments)',
        params: 'list of {name, type} per argument (omit with args)',
        gas_limit: 'optional, default 1000000',
        value: 'optional coin attached to the call'
      }),
      response: errors
    }
  }, async (request) => {
    const user = userOf(request)
    const c = submitCall(deps, user, bodyOf(request))
    return {
      status: 'submitted',
      pending: true,
      tx_id: c.tx.transaction_id,
      contract_addr: `0x${c.to}`,
      selector: c.selector,
      calldata: c.calldata,
      gas_limit: c.gasLimit,
      fee: c.fee,
      value: c.value
    }
  })

  app.post('/api/playground/query', {
    onRequest: deps.queryLimit.hook,
    schema: {
      tags,
      summary: `run a method read-only against the current state: the call fields, no transaction, no fee, gas capped at ${QUERY_GAS_CAP}; a method that writes fails (use call)`,
      body: bodyDoc({
        contract_addr: '40-hex contract address, with or without 0x',
        selector: '1-byte function selector from the ABI',
        args: 'argument values in declaration order (omit for a method without arguments)',
        params: 'list of {name, type} per argument (omit with args)',
        gas_limit: `optional, default 1000000, at most ${QUERY_GAS_CAP}`
      }),
      response: errors
    }
  }, async (request) => runQuery(chain, userOf(request), bodyOf(request), deps.cores))

  app.get('/api/playground/receipt/:tx_id', {
    schema: {
      tags,
      summary: 'the playground receipt of a deploy or call: pending, or confirmed with its outcome',
      params: { type: 'object', required: ['tx_id'], properties: { tx_id: { type: 'string', description: '64-hex transaction id' } } },
      response: { 401: errorSchema, 404: errorSchema }
    }
  }, async (request) => {
    userOf(request)
    return await playgroundReceipt(chain, mempool, (request.params as { tx_id: string }).tx_id)
  })

  app.get('/api/playground/contracts', {
    schema: { tags, summary: 'the contracts the current user deployed, with their ABIs, newest first', response: { 401: errorSchema } }
  }, async (request) => {
    const user = userOf(request)
    const records = await deps.contracts.list(user.address)
    const contracts = await Promise.all(records.map(async (r) => {
      const receipt = await chain.getReceipt(r.tx_id)
      const base = { tx_id: r.tx_id, abi: r.abi, submitted_at: r.submitted_at, name: r.abi.contract, gas_limit: r.gas_limit, bytecode_size: r.bytecode_size }
      if (receipt === undefined) {
        return { ...base, contract_addr: null, status: 'pending', in_mempool: mempool.has(r.tx_id) }
      }
      return {
        ...base,
        contract_addr: receipt.contract === undefined ? null : `0x${receipt.contract}`,
        status: 'deployed',
        block_height: receipt.block_height,
        success: receipt.success,
        error: receipt.error
      }
    }))
    const account = chain.getAccount(user.address)
    return {
      contracts,
      account: { name: user.name, address: user.address, vm_address: user.vm_address, balance: bohmToCoin(account.balance) }
    }
  })

  app.get('/api/playground/examples', {
    schema: { tags, summary: 'the bundled example contracts (counter, guestbook, multisig)', response: { 401: errorSchema } }
  }, async (request) => {
    userOf(request)
    return { examples: EXAMPLES.map(({ id, title, description, source }) => ({ id, title, description, source })) }
  })
}
