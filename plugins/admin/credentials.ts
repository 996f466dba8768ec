// Admin credentials (SPEC 5, DESIGN 1): LEDGER_ADMIN_USER / LEDGER_ADMIN_PASSWORD from the
// environment. Without a password the node generates a random one once, keeps it in
// <dataDir>/admin_credentials.json (mode 0600) and logs where it is: never a fixed default.
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import type { Logger } from 'pino'

export const CREDENTIALS_FILE = 'admin_credentials.json'
export const DEFAULT_ADMIN_USER = 'admin'

export interface AdminCredentials {
  user: string
  password: string
  /** where the password came from */
  source: 'env' | 'file'
  file: string | null
}

interface StoredCredentials { user: string; password: string; created_at: number }

function nonEmpty (v: string | undefined): string | undefined {
  return v !== undefined && v.length > 0 ? v : undefined
}

export function resolveAdminCredentials (dataDir: string, env: NodeJS.ProcessEnv, logger: Logger): AdminCredentials {
  const user = nonEmpty(env.LEDGER_ADMIN_USER) ?? DEFAULT_ADMIN_USER
  const password = nonEmpty(env.LEDGER_ADMIN_PASSWORD)
  if (password !== undefined) return { user, password, source: 'env', file: null }

  const file = path.join(dataDir, CREDENTIALS_FILE)
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<StoredCredentials>
    if (typeof stored.password !== 'string' || stored.password.length < 16) throw new Error(`${file} holds no usable admin password; delete it to generate a new one`)
    chmodSync(file, 0o600)
    logger.info({ file, user }, `LEDGER_ADMIN_PASSWORD not set: admin password is in ${file}`)
    return { user, password: stored.password, source: 'file', file }
  }
  const generated = randomBytes(24).toString('base64url')
  const stored: StoredCredentials = { user, password: generated, created_at: Date.now() / 1000 }
  // 'wx': never overwrite a file another process created meanwhile
  writeFileSync(file, JSON.stringify(stored, null, 2) + '\n', { mode: 0o600, flag: 'wx' })
  logger.warn({ file, user }, `LEDGER_ADMIN_PASSWORD not set: generated an admin password into ${file} (mode 0600)`)
  return { user, password: generated, source: 'file', file }
}
