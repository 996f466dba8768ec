// Account rejections: a domain-prefixed code plus the exact text the client sees, and the
// one table that maps each code to its HTTP status (SPEC 7, DESIGN 5).
import { LedgerError } from '../../../core/chain/errors.ts'
import { HttpError } from '../../../core/kernel/errors.ts'

export const AccountErrorCode = {
  NAME_INVALID: 'ACCOUNT_ERROR_NAME_INVALID',
  NAME_BLOCKED: 'ACCOUNT_ERROR_NAME_BLOCKED',
  NAME_TAKEN: 'ACCOUNT_ERROR_NAME_TAKEN',
  NAME_RESERVED: 'ACCOUNT_ERROR_NAME_RESERVED',
  INVITE_INVALID: 'ACCOUNT_ERROR_INVITE_INVALID',
  INVITE_EXHAUSTED: 'ACCOUNT_ERROR_INVITE_EXHAUSTED',
  LOGIN_MISSING: 'ACCOUNT_ERROR_LOGIN_MISSING',
  LOGIN_FAILED: 'ACCOUNT_ERROR_LOGIN_FAILED',
  LOGIN_BLOCKED: 'ACCOUNT_ERROR_LOGIN_BLOCKED',
  NOT_PENDING: 'ACCOUNT_ERROR_NOT_PENDING',
  NOT_BLOCKED: 'ACCOUNT_ERROR_NOT_BLOCKED',
  UNKNOWN_USER: 'ACCOUNT_ERROR_UNKNOWN_USER',
  UNKNOWN_INVITE: 'ACCOUNT_ERROR_UNKNOWN_INVITE',
  UNKNOWN_TOKEN: 'ACCOUNT_ERROR_UNKNOWN_TOKEN',
  BAD_FIELD: 'ACCOUNT_ERROR_BAD_FIELD',
  QUEUE_FULL: 'ACCOUNT_ERROR_QUEUE_FULL'
} as const
export type AccountErrorCode = typeof AccountErrorCode[keyof typeof AccountErrorCode]

export class AccountError extends LedgerError<AccountErrorCode> {}

const STATUS: Record<AccountErrorCode, number> = {
  ACCOUNT_ERROR_NAME_INVALID: 400,
  ACCOUNT_ERROR_NAME_BLOCKED: 403,
  ACCOUNT_ERROR_NAME_TAKEN: 409,
  ACCOUNT_ERROR_NAME_RESERVED: 409,
  ACCOUNT_ERROR_INVITE_INVALID: 403,
  ACCOUNT_ERROR_INVITE_EXHAUSTED: 403,
  ACCOUNT_ERROR_LOGIN_MISSING: 400,
  ACCOUNT_ERROR_LOGIN_FAILED: 401,
  ACCOUNT_ERROR_LOGIN_BLOCKED: 403,
  ACCOUNT_ERROR_NOT_PENDING: 404,
  ACCOUNT_ERROR_NOT_BLOCKED: 404,
  ACCOUNT_ERROR_UNKNOWN_USER: 404,
  ACCOUNT_ERROR_UNKNOWN_INVITE: 404,
  ACCOUNT_ERROR_UNKNOWN_TOKEN: 404,
  ACCOUNT_ERROR_BAD_FIELD: 400,
  // the node's state, not the client's request, is the problem: try again later
  ACCOUNT_ERROR_QUEUE_FULL: 503
}

export const accountErrors = {
  nameInvalid: () => new AccountError(AccountErrorCode.NAME_INVALID, 'name must be 2-32 chars, alphanumeric / - / _'),
  nameBlocked: () => new AccountError(AccountErrorCode.NAME_BLOCKED, 'this name is blocked'),
  nameTaken: () => new AccountError(AccountErrorCode.NAME_TAKEN, 'name already taken'),
  nameReserved: () => new AccountError(AccountErrorCode.NAME_RESERVED, 'name is reserved for the system'),
  inviteInvalid: () => new AccountError(AccountErrorCode.INVITE_INVALID, 'invalid or revoked invite code'),
  inviteExhausted: () => new AccountError(AccountErrorCode.INVITE_EXHAUSTED, 'invite code has reached its usage limit'),
  loginMissing: () => new AccountError(AccountErrorCode.LOGIN_MISSING, 'name and token required'),
  loginFailed: () => new AccountError(AccountErrorCode.LOGIN_FAILED, 'unknown name or wrong token'),
  loginBlocked: () => new AccountError(AccountErrorCode.LOGIN_BLOCKED, 'this name has been blocked'),
  notPending: (name: string) => new AccountError(AccountErrorCode.NOT_PENDING, `no pending signup named ${name}`),
  notBlocked: () => new AccountError(AccountErrorCode.NOT_BLOCKED, 'not blocked'),
  unknownUser: (name: string) => new AccountError(AccountErrorCode.UNKNOWN_USER, `no approved user named ${name}`),
  unknownInvite: () => new AccountError(AccountErrorCode.UNKNOWN_INVITE, 'unknown invite code'),
  unknownToken: () => new AccountError(AccountErrorCode.UNKNOWN_TOKEN, 'unknown token'),
  badField: (text: string) => new AccountError(AccountErrorCode.BAD_FIELD, text),
  queueFull: (cap: number) => new AccountError(AccountErrorCode.QUEUE_FULL, `the signup queue is full (${cap} waiting for approval); try again later or sign up with an invite code`)
}

/** An AccountError as the HTTP answer it stands for; anything else passes through. */
export function toHttpError (err: unknown): unknown {
  return err instanceof AccountError ? new HttpError(STATUS[err.code], err.message) : err
}
