// Playground rejections (SPEC 7): a domain-prefixed code, and the one table mapping each code
// to its HTTP status and the exact text the client sees. Compile and encode failures carry
// their phase; a compile error also its line and column.
import { HttpError } from '../../core/kernel/errors.ts'
import type { CompileError } from '../../core/contracts/index.ts'

export const PlaygroundErrorCode = {
  NOT_LOGGED_IN: 'PLAYGROUND_ERROR_NOT_LOGGED_IN',
  COMPILE: 'PLAYGROUND_ERROR_COMPILE',
  ENCODE: 'PLAYGROUND_ERROR_ENCODE',
  BAD_FIELD: 'PLAYGROUND_ERROR_BAD_FIELD',
  CALL_FIELDS_MISSING: 'PLAYGROUND_ERROR_CALL_FIELDS_MISSING',
  DEPLOY_FEE: 'PLAYGROUND_ERROR_DEPLOY_FEE',
  CALL_FEE: 'PLAYGROUND_ERROR_CALL_FEE',
  DEPLOY_REJECTED: 'PLAYGROUND_ERROR_DEPLOY_REJECTED',
  CALL_REJECTED: 'PLAYGROUND_ERROR_CALL_REJECTED',
  TX_NOT_FOUND: 'PLAYGROUND_ERROR_TX_NOT_FOUND',
  NO_RECEIPT: 'PLAYGROUND_ERROR_NO_RECEIPT',
  WALLET_MISSING: 'PLAYGROUND_ERROR_WALLET_MISSING'
} as const
export type PlaygroundErrorCode = typeof PlaygroundErrorCode[keyof typeof PlaygroundErrorCode]

/** the spec's texts, word for word (SPEC 7 gives the fee texts "as given") */
export const PLAYGROUND_TEXT = {
  notLoggedIn: 'not logged in',
  callFieldsMissing: 'contract_addr + selector required',
  deployFee: 'insufficient the service for deploy fee',
  callFee: 'insufficient the service for call fee',
  deployRejected: 'deploy tx rejected by mempool',
  callRejected: 'call tx rejected by mempool',
  txNotFound: 'tx not found',
  noReceipt: 'no receipt: not a contract transaction',
  walletMissing: 'the wallet of this account is missing on this node'
} as const

const STATUS: Record<PlaygroundErrorCode, number> = {
  PLAYGROUND_ERROR_NOT_LOGGED_IN: 401,
  PLAYGROUND_ERROR_COMPILE: 400,
  PLAYGROUND_ERROR_ENCODE: 400,
  PLAYGROUND_ERROR_BAD_FIELD: 400,
  PLAYGROUND_ERROR_CALL_FIELDS_MISSING: 400,
  PLAYGROUND_ERROR_DEPLOY_FEE: 400,
  PLAYGROUND_ERROR_CALL_FEE: 400,
  PLAYGROUND_ERROR_DEPLOY_REJECTED: 400,
  PLAYGROUND_ERROR_CALL_REJECTED: 400,
  PLAYGROUND_ERROR_TX_NOT_FOUND: 404,
  PLAYGROUND_ERROR_NO_RECEIPT: 404,
  // a server fault: the account exists but its custodial wallet file does not
  PLAYGROUND_ERROR_WALLET_MISSING: 500
}

export class PlaygroundError extends HttpError {
  readonly code: PlaygroundErrorCode
  constructor (code: PlaygroundErrorCode, message: string, opts: { phase?: string; extra?: Record<string, unknown> } = {}) {
    super(STATUS[code], message, opts)
    this.code = code
  }
}

export const playgroundErrors = {
  notLoggedIn: () => new PlaygroundError(PlaygroundErrorCode.NOT_LOGGED_IN, PLAYGROUND_TEXT.notLoggedIn),
  compile: (err: CompileError) => new PlaygroundError(PlaygroundErrorCode.COMPILE, err.message, {
    phase: 'compile',
    extra: { line: err.line, column: err.column, reason: err.reason }
  }),
  encode: (message: string) => new PlaygroundError(PlaygroundErrorCode.ENCODE, message, { phase: 'encode' }),
  badField: (message: string) => new PlaygroundError(PlaygroundErrorCode.BAD_FIELD, message),
  callFieldsMissing: () => new PlaygroundError(PlaygroundErrorCode.CALL_FIELDS_MISSING, PLAYGROUND_TEXT.callFieldsMissing),
  fee: (kind: 'deploy' | 'call', extra: Record<string, unknown>) => kind === 'deploy'
    ? new PlaygroundError(PlaygroundErrorCode.DEPLOY_FEE, PLAYGROUND_TEXT.deployFee, { extra })
    : new PlaygroundError(PlaygroundErrorCode.CALL_FEE, PLAYGROUND_TEXT.callFee, { extra }),
  rejected: (kind: 'deploy' | 'call', reason: string, code: string) => kind === 'deploy'
    ? new PlaygroundError(PlaygroundErrorCode.DEPLOY_REJECTED, PLAYGROUND_TEXT.deployRejected, { extra: { reason, code } })
    : new PlaygroundError(PlaygroundErrorCode.CALL_REJECTED, PLAYGROUND_TEXT.callRejected, { extra: { reason, code } }),
  txNotFound: () => new PlaygroundError(PlaygroundErrorCode.TX_NOT_FOUND, PLAYGROUND_TEXT.txNotFound),
  noReceipt: () => new PlaygroundError(PlaygroundErrorCode.NO_RECEIPT, PLAYGROUND_TEXT.noReceipt),
  walletMissing: () => new PlaygroundError(PlaygroundErrorCode.WALLET_MISSING, PLAYGROUND_TEXT.walletMissing)
}
