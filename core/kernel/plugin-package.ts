// Finding a plugin that is an npm package: the package is looked up the way Node looks up a bare
// `import 'name'` written in the config file (the nearest node_modules/<name> up from the config
// file's folder, or the package the config file itself belongs to), and its main entry is the
// one an `import` would load: `exports` (subpath ".", conditions node / import / module-sync /
// default) or, without `exports`, `main`, else index.js.
import path from 'node:path'
import { existsSync, readFileSync } from 'node:fs'
import { findPackageJSON } from 'node:module'
import { pathToFileURL } from 'node:url'

/** npm's rule for a package name (lowercase, optional @scope/, no path segments) */
const PACKAGE_NAME = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/

export function isPackageName (name: string): boolean {
  return name.length <= 214 && PACKAGE_NAME.test(name)
}

/** the conditions Node's ESM loader matches for an `import` */
const IMPORT_CONDITIONS: ReadonlySet<string> = new Set(['node', 'import', 'module-sync', 'default'])

export type PackageEntry =
  | { found: true; file: string; packageJson: string }
  | { found: false; reason: 'not-installed' | 'no-entry'; packageJson?: string; detail: string }

function conditionalTarget (target: unknown): string | undefined {
  if (typeof target === 'string') return target
  if (Array.isArray(target)) {
    for (const t of target) {
      const r = conditionalTarget(t)
      if (r !== undefined) return r
    }
    return undefined
  }
  if (target !== null && typeof target === 'object') {
    for (const [condition, value] of Object.entries(target)) {
      if (!IMPORT_CONDITIONS.has(condition)) continue
      const r = conditionalTarget(value)
      if (r !== undefined) return r
    }
  }
  return undefined
}

/** the relative path of a package's main entry as `import` resolves it, or undefined */
export function mainEntryOf (pkg: { exports?: unknown; main?: unknown }): string | undefined {
  const { exports } = pkg
  if (exports === undefined) return typeof pkg.main === 'string' && pkg.main.length > 0 ? pkg.main : 'index.js'
  const subpaths = exports !== null && typeof exports === 'object' && !Array.isArray(exports) && Object.keys(exports).some((k) => k.startsWith('.'))
  const target = conditionalTarget(subpaths ? (exports as Record<string, unknown>)['.'] : exports)
  // Node accepts only targets inside the package ("./…")
  return target !== undefined && target.startsWith('./') ? target : undefined
}

/** Locates the main entry file of package `name` as seen from a config file in `baseDir`. */
export function findPluginPackage (name: string, baseDir: string): PackageEntry {
  let packageJson: string | undefined
  try {
    // a directory URL: the lookup starts in baseDir itself, as for a file in it
    packageJson = findPackageJSON(name, pathToFileURL(path.join(baseDir, path.sep)).href)
  } catch (err) {
    return { found: false, reason: 'not-installed', detail: (err as Error).message }
  }
  if (packageJson === undefined) return { found: false, reason: 'not-installed', detail: `no package.json for '${name}'` }
  let pkg: { exports?: unknown; main?: unknown }
  try {
    pkg = JSON.parse(readFileSync(packageJson, 'utf8')) as { exports?: unknown; main?: unknown }
  } catch (err) {
    return { found: false, reason: 'no-entry', packageJson, detail: `cannot read ${packageJson}: ${(err as Error).message}` }
  }
  const rel = mainEntryOf(pkg)
  if (rel === undefined) return { found: false, reason: 'no-entry', packageJson, detail: `${packageJson} has no "exports" entry for "." under the conditions ${[...IMPORT_CONDITIONS].join(', ')}` }
  const dir = path.dirname(packageJson)
  const file = path.resolve(dir, rel)
  if (path.relative(dir, file).startsWith('..')) return { found: false, reason: 'no-entry', packageJson, detail: `${packageJson}: entry ${rel} lies outside the package` }
  if (!existsSync(file)) return { found: false, reason: 'no-entry', packageJson, detail: `${packageJson}: entry ${rel} does not exist` }
  return { found: true, file, packageJson }
}
