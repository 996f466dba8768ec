// Error codes of the entropy side, with the HTTP status each maps to in one place.

export const EntropyErrorCode = {
  BAD_REQUEST: 'ENTROPY_ERROR_BAD_REQUEST',
  WARMING_UP: 'ENTROPY_ERROR_WARMING_UP',
  BELOW_QUORUM: 'ENTROPY_ERROR_BELOW_QUORUM',
  POOL_LOW: 'ENTROPY_ERROR_POOL_LOW',
  STOPPED: 'ENTROPY_ERROR_STOPPED',
  UNREACHABLE: 'ENTROPY_ERROR_UNREACHABLE',
  UNTRUSTED_SOURCE: 'ENTROPY_ERROR_UNTRUSTED_SOURCE'
} as const
export type EntropyErrorCode = typeof EntropyErrorCode[keyof typeof EntropyErrorCode]

const HTTP_STATUS: Record<EntropyErrorCode, number> = {
  ENTROPY_ERROR_BAD_REQUEST: 400,
  ENTROPY_ERROR_WARMING_UP: 503,
  ENTROPY_ERROR_BELOW_QUORUM: 503,
  ENTROPY_ERROR_POOL_LOW: 503,
  ENTROPY_ERROR_STOPPED: 503,
  ENTROPY_ERROR_UNREACHABLE: 503,
  ENTROPY_ERROR_UNTRUSTED_SOURCE: 503
}

export class EntropyError extends Error {
  override name = 'EntropyError'
  readonly code: EntropyErrorCode
  constructor (code: EntropyErrorCode, message: string) {
    super(message)
    this.code = code
  }

  get httpStatus (): number { return HTTP_STATUS[this.code] }
}
