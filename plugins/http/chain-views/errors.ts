// Error texts of the read surfaces. The spec fixes the first three (SPEC 7); the rest are
// ours and documented in docs/explorer.md.
export const VIEW_ERRORS = {
  heightNotInteger: 'height must be integer',
  noSuchBlock: 'no such block',
  txNotFound: 'tx not found',
  noReceipt: 'receipt not found',
  invalidAddress: 'address must be 32 or 40 hex characters, with or without 0x',
  badBlockIdentifier: 'identifier must be a block height or a 128-hex block hash'
} as const
