export declare const NODE_FLAGS: string[]
export declare const NODE_ENV: { MALLOC_ARENA_MAX: string }
export declare function missingNodeFlags (execArgv: string[], nodeOptions: string | undefined): string[]
export declare function missingNodeEnv (env: Record<string, string | undefined>): Record<string, string>
export declare function execWithNodeFlags (argv: string[]): void
