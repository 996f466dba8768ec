// Which nodes are peered: pure, seeded. A link [a, b] means node a dials node b (through the
// link's relay); each pair appears once, so no two connections join the same two nodes.

export type Topology = { kind: 'line' } | { kind: 'ring' } | { kind: 'star' } | { kind: 'full' } | { kind: 'random'; degree: number }

export type Link = readonly [dialer: number, listener: number]

export function parseTopology (text: string): Topology {
  if (text === 'line' || text === 'ring' || text === 'star' || text === 'full') return { kind: text }
  const m = /^random:(\d+)$/.exec(text)
  if (m !== null && Number(m[1]) >= 1) return { kind: 'random', degree: Number(m[1]) }
  throw new Error(`topology '${text}' is not line, ring, star, full or random:<degree>`)
}

export function formatTopology (t: Topology): string { return t.kind === 'random' ? `random:${t.degree}` : t.kind }

/**
 * The links of `n` nodes. random:d: a ring first (so the graph is connected), then random
 * extra links until every node has at least d neighbours or no pair is left.
 */
export function links (t: Topology, n: number, random: () => number): Link[] {
  const out: Link[] = []
  const has = new Set<string>()
  const add = (a: number, b: number): void => {
    if (a === b) return
    const key = a < b ? `${a}-${b}` : `${b}-${a}`
    if (has.has(key)) return
    has.add(key)
    out.push([Math.min(a, b), Math.max(a, b)])
  }
  if (t.kind === 'line') for (let i = 0; i + 1 < n; i++) add(i, i + 1)
  if (t.kind === 'ring' || t.kind === 'random') for (let i = 0; i < n; i++) add(i, (i + 1) % n)
  if (t.kind === 'star') for (let i = 1; i < n; i++) add(0, i)
  if (t.kind === 'full') for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) add(a, b)
  if (t.kind === 'random') {
    const degree = (i: number): number => out.filter(([a, b]) => a === i || b === i).length
    for (let round = 0; round < n * n; round++) {
      const short = Array.from({ length: n }, (_, i) => i).filter((i) => degree(i) < t.degree)
      if (short.length === 0) break
      const a = short[Math.floor(random() * short.length)] as number
      const free = Array.from({ length: n }, (_, i) => i).filter((b) => b !== a && !has.has(a < b ? `${a}-${b}` : `${b}-${a}`))
      if (free.length === 0) break
      add(a, free[Math.floor(random() * free.length)] as number)
    }
  }
  return out
}

/** hops from `from` to every node (Infinity when unreachable) */
export function hopDistances (all: readonly Link[], n: number, from: number): number[] {
  const dist = Array.from({ length: n }, () => Infinity)
  dist[from] = 0
  const queue = [from]
  while (queue.length > 0) {
    const v = queue.shift() as number
    for (const [a, b] of all) {
      const w = a === v ? b : b === v ? a : -1
      if (w >= 0 && dist[w] === Infinity) { dist[w] = (dist[v] as number) + 1; queue.push(w) }
    }
  }
  return dist
}
