// Reading the repository's own TypeScript sources in boundary tests.

/** the source with comments blanked (strings kept; a `//` inside a string is left alone) */
export function withoutComments (src: string): string {
  let out = ''
  let i = 0
  let quote: string | null = null
  while (i < src.length) {
    const c = src[i] as string
    if (quote !== null) {
      out += c
      if (c === '\\') { out += src[i + 1] ?? ''; i += 2; continue }
      if (c === quote) quote = null
      i++
      continue
    }
    if (c === '"' || c === "'" || c === '`') { quote = c; out += c; i++; continue }
    if (src.startsWith('//', i)) { const end = src.indexOf('\n', i); i = end === -1 ? src.length : end; continue }
    if (src.startsWith('/*', i)) { const end = src.indexOf('*/', i + 2); i = end === -1 ? src.length : end + 2; continue }
    out += c
    i++
  }
  return out
}
