// Loading a config file (ledger.config.ts or any module default-exporting a config): light on
// purpose, as the CLI loads the profile before it knows which command runs. Validation is in
// config.ts.
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { existsSync, readFileSync } from 'node:fs'
import { findPackageJSON } from 'node:module'
import type { UserConfig } from './define-config.ts'

export class ConfigError extends Error {}

/** Loads a config module (TypeScript via Node's type stripping) and returns its default export. */
export async function loadConfigFile (file: string): Promise<UserConfig> {
  const abs = path.resolve(file)
  if (!existsSync(abs)) throw new ConfigError(`config file not found: ${abs}`)
  let mod: { default?: unknown }
  try {
    mod = await import(pathToFileURL(abs).href) as { default?: unknown }
  } catch (err) {
    const cjs = commonJsFolder(abs, err)
    if (cjs !== undefined) throw new ConfigError(cjs)
    const at = err instanceof Error ? syntaxErrorLocation(err) : undefined
    if (at !== undefined) throw new ConfigError(`syntax error in config file ${abs}:${at.line}${at.column === undefined ? '' : `:${at.column}`} (line ${at.line}${at.column === undefined ? '' : `, column ${at.column}`}): ${(err as Error).message}`)
    throw new ConfigError(`cannot load config file ${abs}: ${(err as Error).message}`)
  }
  // a config compiled to CommonJS (a TypeScript loader such as ts-node, outside a "type":
  // "module" package) arrives as { __esModule, default } under the default export
  const exported = unwrapCommonJs(mod.default)
  if (exported === null || typeof exported !== 'object' || Array.isArray(exported)) {
    throw new ConfigError(`config file ${abs} must default-export an object (use defineConfig)`)
  }
  return exported as UserConfig
}

/** ESM syntax the loader refused as CommonJS, because the nearest package.json says
 *  "type": "commonjs": the message names the file, the package.json and both fixes. */
export function commonJsFolder (file: string, err: unknown): string | undefined {
  const message = err instanceof Error ? err.message : ''
  if (!/Cannot use import statement outside a module|Unexpected token 'export'|require\(\) of ES Module|Cannot require\(\) ES Module|ERR_REQUIRE_ESM/.test(message)) return undefined
  if (!/\.(ts|js)$/.test(file)) return undefined
  let pkgFile: string | undefined
  try { pkgFile = findPackageJSON(pathToFileURL(file)) } catch { return undefined }
  if (pkgFile === undefined) return undefined
  let type: unknown
  try { type = (JSON.parse(readFileSync(pkgFile, 'utf8')) as { type?: unknown }).type } catch { return undefined }
  if (type === 'module') return undefined
  const ext = path.extname(file)
  return `config file ${file} uses import/export, but ${pkgFile} makes ${ext} files in its folder CommonJS ("type": ${JSON.stringify(type ?? 'commonjs')}): rename the config to ${path.basename(file, ext)}.m${ext.slice(1)} (and pass --config ${path.basename(file, ext)}.m${ext.slice(1)}), or set "type": "module" in ${pkgFile}`
}

function unwrapCommonJs (m: unknown): unknown {
  const interop = typeof m === 'object' && m !== null && (m as { __esModule?: unknown }).__esModule === true && 'default' in m
  return interop ? (m as { default: unknown }).default : m
}

/**
 * Line and column of a syntax error in a module Node refused to load. Node's type stripper
 * prints them in the stack as `<file>:<line>`, the source line, and a caret line under the
 * offending token; an error spanning lines has no caret, only the line.
 */
export function syntaxErrorLocation (err: Error): { line: number; column?: number } | undefined {
  // a TypeScript loader (ts-node style, as test runners register) says `file(3,23): error TS1005`
  const tsc = /\((\d+),(\d+)\): error TS\d+/.exec(err.message)
  if (tsc !== null) return { line: Number(tsc[1]), column: Number(tsc[2]) }
  if (!(err instanceof SyntaxError)) return undefined
  const lines = (err.stack ?? '').split('\n')
  const head = /:(\d+)$/.exec(lines[0] ?? '')
  if (head === null) return undefined
  const line = Number(head[1])
  const caret = lines.slice(1, 8).findIndex((l) => /^\s*\^+\s*$/.test(l))
  return caret === -1 ? { line } : { line, column: (lines[caret + 1] ?? '').indexOf('^') + 1 }
}
