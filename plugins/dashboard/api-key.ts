// The dashboard's write key (DESIGN 1): LEDGER_API_KEY when set, otherwise generated once
// into <dataDir>/api_key.json with mode 0600 and reused on every later boot.
import path from 'node:path'
import crypto from 'node:crypto'
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'

export const API_KEY_FILE = 'api_key.json'
export const API_KEY_ENV = 'LEDGER_API_KEY'

export interface ApiKey {
  key: string
  /** where it came from; the file path is logged, the key never is */
  source: 'env' | 'file'
  file: string | null
  created: boolean
}

interface ApiKeyFile { api_key: string; created_at: number }

function readKeyFile (file: string): string {
  // a key readable by others may already be copied; tighten it rather than refuse to boot
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600)
  let parsed: Partial<ApiKeyFile>
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<ApiKeyFile>
  } catch (err) {
    throw new Error(`${file} is not valid JSON (${(err as Error).message}); delete it to generate a new dashboard API key`)
  }
  if (typeof parsed.api_key !== 'string' || parsed.api_key.length < 16) {
    throw new Error(`${file} holds no api_key of at least 16 characters; delete it to generate a new one`)
  }
  return parsed.api_key
}

export function loadOrCreateApiKey (dataDir: string, env: NodeJS.ProcessEnv = process.env): ApiKey {
  const fromEnv = env[API_KEY_ENV]?.trim()
  if (fromEnv !== undefined && fromEnv.length > 0) return { key: fromEnv, source: 'env', file: null, created: false }
  const file = path.join(dataDir, API_KEY_FILE)
  if (existsSync(file)) return { key: readKeyFile(file), source: 'file', file, created: false }
  const key = crypto.randomBytes(32).toString('hex')
  const body: ApiKeyFile = { api_key: key, created_at: Date.now() / 1000 }
  writeFileSync(file, JSON.stringify(body, null, 2) + '\n', { mode: 0o600, flag: 'wx' })
  return { key, source: 'file', file, created: true }
}
