// User names (SPEC 8): 2..32 chars of [A-Za-z0-9_-], unique regardless of case so that
// "Alice" cannot impersonate "alice".

export const NAME_RE = /^[A-Za-z0-9_-]{2,32}$/

export function isValidName (v: unknown): v is string {
  return typeof v === 'string' && NAME_RE.test(v)
}

export function nameKey (name: string): string {
  return name.toLowerCase()
}
