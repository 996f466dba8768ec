// POST /api/tx/submit (SPEC 4.1, DESIGN 5): a pre-signed transaction into the mempool.
// 200 {"status":"accepted","tx_id"}; 400 {"status":"rejected","reason"} (plus the node's
// usual "error" key) for a body of the wrong shape or a transaction the mempool refuses.
import type { FastifyInstance, FastifySchemaValidationError } from 'fastify'
import { HttpError } from '../../../core/kernel/errors.ts'
import { LedgerError } from '../../../core/chain/errors.ts'
import type { MempoolService } from '../../../core/chain/mempool-service.ts'
import type { Transaction } from '../../../core/chain/types.ts'
import type { JsonSchema } from '../../../core/kernel/plugin.ts'
import { submitAcceptedSchema, submitBodySchema, submitRejectedSchema } from '../schemas.ts'

export const SUBMIT_ROUTE = '/api/tx/submit'

function rejected (reason: string, code?: string): HttpError {
  return new HttpError(400, reason, { extra: code === undefined ? { status: 'rejected', reason } : { status: 'rejected', reason, code } })
}

/** "body.<field> <problem>", the same wording as the node's other schema errors */
function fieldProblem (errors: FastifySchemaValidationError[]): string {
  const first = errors[0]
  if (first === undefined) return 'body is invalid'
  const params = first.params as Record<string, unknown>
  if (first.keyword === 'required') return `body.${String(params.missingProperty)} is required`
  const path = first.instancePath.replace(/^\//, '').replace(/\//g, '.')
  return `${path.length > 0 ? `body.${path}` : 'body'} ${first.message ?? 'is invalid'}`
}

export function registerSubmitRoute (app: FastifyInstance, mempool: MempoolService, errorSchema: JsonSchema): void {
  app.post(SUBMIT_ROUTE, {
    attachValidation: true,
    // a body that never parsed (not JSON, empty, nested too deep) is rejected in this shape too
    config: { badRequestExtra: (reason: string) => ({ status: 'rejected', reason }) },
    schema: {
      tags: ['transactions'],
      summary: 'submit a pre-signed transaction (SPEC 2.3 body); needs Authorization: Bearer <API key>',
      body: submitBodySchema,
      response: { 200: submitAcceptedSchema, 400: submitRejectedSchema, 401: errorSchema, 413: errorSchema }
    }
  }, async (request) => {
    if (request.validationError !== undefined) {
      const v = request.validationError as Error & { validation?: FastifySchemaValidationError[] }
      throw rejected(v.validation !== undefined ? fieldProblem(v.validation) : 'body must be a JSON object')
    }
    // the body as sent: a key the transaction schema does not name is refused by the
    // mempool's format check (naming it), never silently dropped or passed on
    const tx = request.body as Transaction
    try {
      mempool.add(tx)
    } catch (err) {
      if (err instanceof LedgerError) throw rejected(err.message, err.code)
      throw err
    }
    return { status: 'accepted', tx_id: tx.transaction_id }
  })
}
