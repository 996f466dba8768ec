// Plugin resolution and ordering. An entry is a built-in, an npm package or a path:
//   'name' / { name }   a built-in when plugins/<name>/manifest.ts exists (built-ins win),
//                       otherwise the npm package of that name
//   { package }         always an npm package, looked up from the config file's folder
//   { path }            a folder or file, relative to the config file's folder
// Order: dependencies first, ties broken by the order the config lists them.
import path from 'node:path'
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { PluginEntry } from './config.ts'
import type { PluginManifest } from './plugin.ts'
import type { Services } from './services.ts'
import { findPluginPackage, isPackageName } from './plugin-package.ts'
import { apiVersionRefusal, peerRangeRefusal } from './plugin-api.ts'

export class PluginLoadError extends Error {}

const BUILTIN_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'plugins')
/** commands that are no plugin of the node (wallet, verify, bench): tools/<name>/manifest.ts */
const TOOLS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'tools')
const BUILTIN_NAME = /^[a-z0-9][a-z0-9-]*$/

/** services the kernel itself registers before any plugin */
export const KERNEL_SERVICES: ReadonlyArray<keyof Services> = ['config', 'logger', 'hooks', 'params', 'node', 'cores']

export interface LoadedPlugin {
  manifest: PluginManifest
  /** the manifest file */
  source: string
  /** how the config named it: "built-in 'chain'", "package 'x'", "path './x'" */
  origin: string
  enabled: boolean
}

export interface Location {
  file: string
  label: string
  origin: string
  enabled: boolean
  /** a package plugin's package.json (its peerDependencies are checked) */
  packageJson?: string
}

function builtinFile (name: string): string {
  return path.join(BUILTIN_DIR, name, 'manifest.ts')
}

function packageLocation (name: string, baseDir: string, enabled: boolean, asFallback: boolean): Location {
  const found = findPluginPackage(name, baseDir)
  if (found.found) return { file: found.file, label: name, origin: `package '${name}'`, enabled, packageJson: found.packageJson }
  if (found.reason === 'no-entry') throw new PluginLoadError(`plugin package '${name}' has no entry point: ${found.detail}`)
  const install = `install it next to the config file (npm install ${name} in ${baseDir})`
  throw new PluginLoadError(asFallback
    ? `plugin '${name}' not found: it is not a built-in plugin (${builtinPluginNames().join(', ')}) and no package '${name}' is installed for ${baseDir}; ${install}`
    : `plugin package '${name}' is not installed for ${baseDir}; ${install}`)
}

export function entryLocation (entry: PluginEntry, baseDir: string): Location {
  const e = typeof entry === 'string' ? (entry.startsWith('.') || path.isAbsolute(entry) ? { path: entry } : { name: entry }) : entry
  const enabled = e.enabled !== false
  const forms = [e.name, e.path, e.package].filter((v) => v !== undefined).length
  if (forms !== 1) throw new PluginLoadError(`plugin entry ${JSON.stringify(entry)} must have exactly one of name, package and path`)
  if (e.path !== undefined) {
    let file = path.resolve(baseDir, e.path)
    if (existsSync(path.join(file, 'manifest.ts'))) file = path.join(file, 'manifest.ts')
    if (!existsSync(file)) throw new PluginLoadError(`plugin '${e.path}' not found (looked for ${file})`)
    return { file, label: e.path, origin: `path '${e.path}'`, enabled }
  }
  if (e.package !== undefined) {
    if (!isPackageName(e.package)) throw new PluginLoadError(`invalid plugin package name '${e.package}'`)
    return packageLocation(e.package, baseDir, enabled, false)
  }
  const name = e.name as string
  if (BUILTIN_NAME.test(name) && existsSync(builtinFile(name))) return { file: builtinFile(name), label: name, origin: `built-in '${name}'`, enabled }
  if (!isPackageName(name)) throw new PluginLoadError(`invalid plugin name '${name}'`)
  return packageLocation(name, baseDir, enabled, true)
}

/** names of the built-in plugins (folders of plugins/ holding a manifest) */
export function builtinPluginNames (): string[] {
  return readdirSync(BUILTIN_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(BUILTIN_DIR, d.name, 'manifest.ts')))
    .map((d) => d.name)
    .sort()
}

/** the built-in plugins' `commands.ts` files (the CLI commands their manifests contribute) */
export function builtinCommandFiles (): string[] {
  return builtinPluginNames().map((name) => path.join(BUILTIN_DIR, name, 'commands.ts')).filter((f) => existsSync(f))
}

/** the tools' manifests (tools/<name>/manifest.ts), in name order */
export function toolManifestFiles (): string[] {
  if (!existsSync(TOOLS_DIR)) return []
  return readdirSync(TOOLS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(TOOLS_DIR, d.name, 'manifest.ts')))
    .map((d) => path.join(TOOLS_DIR, d.name, 'manifest.ts'))
    .sort()
}

/** the default export of a plugin or tool module, unwrapping a CommonJS build's interop */
export function defaultExport (mod: { default?: unknown }): unknown {
  return isCjsInterop(mod.default) ? mod.default.default : mod.default
}

function isCjsInterop (m: unknown): m is { default: unknown } {
  return typeof m === 'object' && m !== null && (m as { __esModule?: unknown }).__esModule === true && 'default' in m
}

function checkManifest (m: unknown, label: string): PluginManifest {
  const man = m as Partial<PluginManifest> | undefined
  if (man === undefined || man === null || typeof man !== 'object') throw new PluginLoadError(`plugin '${label}' has no default-exported manifest`)
  if (typeof man.name !== 'string' || man.name.length === 0) throw new PluginLoadError(`plugin '${label}': manifest.name missing`)
  if (typeof man.register !== 'function') throw new PluginLoadError(`plugin '${man.name}': manifest.register must be a function`)
  if (!Array.isArray(man.provides) || !Array.isArray(man.needs)) throw new PluginLoadError(`plugin '${man.name}': manifest.provides and manifest.needs must be arrays`)
  const refusal = apiVersionRefusal(man.name, man.apiVersion)
  if (refusal !== undefined) throw new PluginLoadError(refusal)
  return man as PluginManifest
}

/** A package's declared range for ledger-node (peerDependencies), if any, holds for this node. */
function checkPeerRange (label: string, packageJson: string): void {
  let range: unknown
  try {
    range = (JSON.parse(readFileSync(packageJson, 'utf8')) as { peerDependencies?: Record<string, unknown> }).peerDependencies?.['ledger-node']
  } catch { return }
  if (typeof range !== 'string') return
  const refusal = peerRangeRefusal(label, range)
  if (refusal !== undefined) throw new PluginLoadError(refusal)
}

/** Node strips types only outside node_modules: a linked package (file:, npm link) has its real
 *  path outside, a copied one does not (Node says ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING,
 *  a TypeScript loader that ignores node_modules says something else) */
function typeScriptInNodeModules (file: string): boolean {
  if (!/\.[cm]?ts$/.test(file)) return false
  try {
    return realpathSync(file).split(path.sep).includes('node_modules')
  } catch { return false }
}

export async function loadPlugins (entries: readonly PluginEntry[], baseDir: string): Promise<LoadedPlugin[]> {
  const out: LoadedPlugin[] = []
  for (const entry of entries) {
    const { file, label, origin, enabled, packageJson } = entryLocation(entry, baseDir)
    if (packageJson !== undefined) checkPeerRange(label, packageJson)
    let mod: { default?: unknown }
    try {
      mod = await import(pathToFileURL(file).href) as { default?: unknown }
    } catch (err) {
      const hint = typeScriptInNodeModules(file) ? ' (a plugin written in TypeScript must be linked, e.g. npm install <its folder>, or published as JavaScript)' : ''
      throw new PluginLoadError(`plugin '${label}' failed to load: ${(err as Error).message}${hint}`)
    }
    // a plugin compiled to CommonJS arrives as { __esModule, default } under the default export
    const manifest = checkManifest(defaultExport(mod), label)
    const twin = out.find((p) => p.manifest.name === manifest.name)
    if (twin !== undefined) {
      throw new PluginLoadError(twin.origin === origin
        ? `plugin '${manifest.name}' is listed twice`
        : `plugin '${manifest.name}' is listed twice: ${twin.origin} and ${origin} both name themselves '${manifest.name}'`)
    }
    out.push({ manifest, source: file, origin, enabled })
  }
  return out
}

/** Enabled plugins in dependency order; throws naming the plugin and the missing service. */
export function orderPlugins (plugins: readonly LoadedPlugin[]): PluginManifest[] {
  const enabled = plugins.filter((p) => p.enabled).map((p) => p.manifest)
  const providerOf = new Map<string, PluginManifest>()
  for (const m of enabled) {
    for (const s of m.provides) {
      const prev = providerOf.get(s)
      if (prev !== undefined) throw new PluginLoadError(`service '${s}' is provided by both '${prev.name}' and '${m.name}'`)
      if (KERNEL_SERVICES.includes(s)) throw new PluginLoadError(`plugin '${m.name}' cannot provide kernel service '${s}'`)
      providerOf.set(s, m)
    }
  }
  for (const m of enabled) {
    for (const s of m.needs) {
      if (KERNEL_SERVICES.includes(s) || providerOf.has(s)) continue
      const disabled = plugins.find((p) => !p.enabled && p.manifest.provides.includes(s))
      throw new PluginLoadError(disabled !== undefined
        ? `plugin '${m.name}' needs service '${s}', provided by plugin '${disabled.manifest.name}', which is disabled`
        : `plugin '${m.name}' needs service '${s}', which no enabled plugin provides`)
    }
  }
  const ordered: PluginManifest[] = []
  const state = new Map<string, 'visiting' | 'done'>()
  const visit = (m: PluginManifest, trail: string[]): void => {
    const st = state.get(m.name)
    if (st === 'done') return
    if (st === 'visiting') throw new PluginLoadError(`plugin dependency cycle: ${[...trail, m.name].join(' -> ')}`)
    state.set(m.name, 'visiting')
    for (const s of [...m.needs, ...(m.optional ?? [])]) {
      const dep = providerOf.get(s)
      if (dep !== undefined && dep !== m) visit(dep, [...trail, m.name])
    }
    state.set(m.name, 'done')
    ordered.push(m)
  }
  for (const m of enabled) visit(m, [])
  return ordered
}
