export function requiredNodeRange (): string
export function parseRange (range: string): { major: number; min: [number, number, number] }
export function satisfies (version: string, range: string): boolean
export function pinnedNode (): string | undefined
export function wrongNodeMessage (version: string, execPath: string, range: string): string
