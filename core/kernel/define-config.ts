// What a `ledger.config.ts` imports: defineConfig and the types it checks against, nothing
// else. The CLI loads the config to find the profile's commands and flags (`ledger --help`),
// so this module stays free of the validator and the cores (0.45 s of imports).
import type { CoreSelection } from '../cores/cores.ts'
import type { NodeConfig } from './config.ts'

/** A built-in or package name, a path ('./x', '/x'), or the object form of one of them with
 *  `enabled`; `package` always names an npm package (see core/kernel/loader.ts for the rule). */
export type PluginEntry = string | { name?: string; package?: string; path?: string; enabled?: boolean }

export type UserConfig = Partial<Omit<NodeConfig, 'cores' | 'baseDir'>> & { cores?: Partial<CoreSelection> } & Record<string, unknown>

/** Identity helper that gives `ledger.config.ts` type checking. */
export function defineConfig (config: UserConfig): UserConfig { return config }
