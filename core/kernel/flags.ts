// `ledger run` options contributed by plugins (manifest `flags`): each sets one key of its
// plugin's config section, over ledger.config.ts. The kernel knows the mechanism, not the
// plugins: which flags exist is whatever the profile's manifests declare.
import type { Argv } from 'yargs'
import type { PluginFlag } from './plugin.ts'
import { UsageError } from './errors.ts'

/** a flag together with the plugin (config section) it belongs to */
export interface OwnedFlag { plugin: string; flag: PluginFlag }

/** Adds every flag to a yargs builder, in the order given. */
export function addFlags<T> (y: Argv<T>, flags: readonly OwnedFlag[]): Argv<T> {
  let out = y
  for (const { flag } of flags) out = out.option(flag.name, flag.option) as Argv<T>
  return out
}

function checkPort (name: string, v: unknown): void {
  if (v === undefined) return
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 65535) throw new UsageError(`--${name} must be a port number 0-65535`)
}

/** The flags the user gave, as a config overlay: `{ <plugin>: { <key>: value } }`. Port flags
 *  are checked first, so a bad port is the one error whatever else is wrong. */
export function pluginFlagOverrides (args: Record<string, unknown>, flags: readonly OwnedFlag[]): Record<string, Record<string, unknown>> {
  for (const { flag } of flags) if (flag.port === true) checkPort(flag.name, args[flag.name])
  const out: Record<string, Record<string, unknown>> = {}
  for (const { plugin, flag } of flags) {
    const given = args[flag.name]
    if (given === undefined) continue
    const value = flag.toConfig === undefined ? given : flag.toConfig(given)
    if (value === undefined) continue
    out[plugin] = { ...out[plugin], [flag.key]: value }
  }
  return out
}

/** the flag that moves a plugin's listener (`--dashboard-port`), if it declares one */
export function portFlagOf (flags: readonly PluginFlag[] | undefined): string | undefined {
  const flag = flags?.find((f) => f.port === true)
  return flag === undefined ? undefined : `--${flag.name}`
}
