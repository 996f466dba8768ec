// Plugin resolution and ordering. Built-ins are found by name under plugins/<name>/manifest.ts,
// third-party plugins by path (relative to the config file). Order: dependencies first,
// ties broken by the order the config lists them.
import path from 'node:path'
import { existsSync, readdirSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { PluginEntry } from './config.ts'
import type { PluginManifest } from './plugin.ts'
import type { Services } from './services.ts'

export class PluginLoadError extends Error {}

const BUILTIN_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'plugins')

/** services the kernel itself registers before any plugin */
export const KERNEL_SERVICES: ReadonlyArray<keyof Services> = ['config', 'logger', 'hooks', 'params', 'node', 'cores']

export interface LoadedPlugin {
  manifest: PluginManifest
  source: string
  enabled: boolean
}

function entryLocation (entry: PluginEntry, baseDir: string): { file: string; label: string; enabled: boolean } {
  const e = typeof entry === 'string' ? (entry.startsWith('.') || path.isAbsolute(entry) ? { path: entry } : { name: entry }) : entry
  const enabled = e.enabled !== false
  if (e.path !== undefined) {
    let file = path.resolve(baseDir, e.path)
    if (existsSync(path.join(file, 'manifest.ts'))) file = path.join(file, 'manifest.ts')
    return { file, label: e.path, enabled }
  }
  const name = e.name as string
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) throw new PluginLoadError(`invalid plugin name '${name}'`)
  return { file: path.join(BUILTIN_DIR, name, 'manifest.ts'), label: name, enabled }
}

/** names of the built-in plugins (folders of plugins/ holding a manifest) */
export function builtinPluginNames (): string[] {
  return readdirSync(BUILTIN_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(BUILTIN_DIR, d.name, 'manifest.ts')))
    .map((d) => d.name)
}

/** the built-in plugins' `commands.ts` files (the CLI commands their manifests contribute) */
export function builtinCommandFiles (): string[] {
  return builtinPluginNames().map((name) => path.join(BUILTIN_DIR, name, 'commands.ts')).filter((f) => existsSync(f))
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
  return man as PluginManifest
}

export async function loadPlugins (entries: readonly PluginEntry[], baseDir: string): Promise<LoadedPlugin[]> {
  const out: LoadedPlugin[] = []
  for (const entry of entries) {
    const { file, label, enabled } = entryLocation(entry, baseDir)
    if (!existsSync(file)) throw new PluginLoadError(`plugin '${label}' not found (looked for ${file})`)
    let mod: { default?: unknown }
    try {
      mod = await import(pathToFileURL(file).href) as { default?: unknown }
    } catch (err) {
      throw new PluginLoadError(`plugin '${label}' failed to load: ${(err as Error).message}`)
    }
    // a plugin compiled to CommonJS arrives as { __esModule, default } under the default export
    const exported = mod.default
    const manifest = checkManifest(isCjsInterop(exported) ? exported.default : exported, label)
    if (out.some((p) => p.manifest.name === manifest.name)) throw new PluginLoadError(`plugin '${manifest.name}' is listed twice`)
    out.push({ manifest, source: file, enabled })
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
