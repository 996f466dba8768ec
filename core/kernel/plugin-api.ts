// The plugin API's version and the rule a manifest's `apiVersion` is checked by (docs/plugins.md,
// "Versions"). Semver: a minor release adds (hooks, services, context methods) and breaks no
// plugin; a major one may. A plugin declares the version it was written against; the node loads
// it when its own API is that version or a later minor of the same major (npm's ^ range).
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import semver from 'semver'

export const PLUGIN_API_VERSION = '1.1.0'

/** ledger-node's package version, which a plugin package's peerDependencies range names */
export function nodePackageVersion (): string {
  const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'package.json')
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version
}

/** Why a plugin written for plugin API `declared` cannot load on `provided`, or undefined when it can. */
export function apiVersionRefusal (plugin: string, declared: unknown, provided = PLUGIN_API_VERSION): string | undefined {
  const want = typeof declared === 'string' ? semver.coerce(declared, { includePrerelease: false }) : null
  if (typeof declared !== 'string' || want === null || !/^\d+(\.\d+){0,2}$/.test(declared)) {
    return `plugin '${plugin}': manifest.apiVersion must be the plugin API version it is written for, e.g. '${semver.major(provided)}.${semver.minor(provided)}' (this node provides plugin API ${provided}); got ${JSON.stringify(declared)}`
  }
  if (semver.satisfies(provided, `^${want.version}`)) return undefined
  const fix = semver.gt(want, provided)
    ? 'upgrade ledger-node to a version that provides it'
    : `the plugin needs a release written for plugin API ${semver.major(provided)}.x`
  return `plugin '${plugin}' is written for plugin API ${declared}, but this node provides plugin API ${provided}: ${fix}`
}

/** Why a plugin package whose peerDependencies name `range` for ledger-node cannot load here. */
export function peerRangeRefusal (plugin: string, range: string, nodeVersion = nodePackageVersion()): string | undefined {
  if (semver.validRange(range) === null) return `plugin package '${plugin}' has an invalid peerDependencies range for ledger-node: ${JSON.stringify(range)}`
  if (semver.satisfies(nodeVersion, range, { includePrerelease: true })) return undefined
  return `plugin package '${plugin}' requires ledger-node ${range} (its peerDependencies), but this node is ledger-node ${nodeVersion}`
}
