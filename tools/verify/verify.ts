// `ledger verify --node URL [--from H] [--to H]`: re-verifies a remote node's chain over its
// public HTTP API only (GET /api/explorer/stats, GET /api/explorer/block/{h}/raw), trusting
// nothing it serves: the network is recognised by its genesis block, the beacon keys are this
// program's own registry pins, every block is checked by the validator's code (ChainVerifier).
// Exit 0 only when every block holds; 1 when one does not; 2 when the node cannot be read.
import { NETWORKS } from '../../config/networks.ts'
import type { NetworkParams } from '../../core/chain/params.ts'
import type { Block } from '../../core/chain/types.ts'
import { genesisBlock } from '../../core/chain/genesis.ts'
import { ChainVerifier } from '../../core/chain/chain-verifier.ts'
import { retargetTimestampCount } from '../../core/chain/difficulty.ts'
import { Cores } from '../../core/cores/cores.ts'
import type { CoreSelection } from '../../core/cores/cores.ts'

export interface VerifyOptions {
  node: string
  from?: number
  to?: number
  /** `--core`: the cores that hash and verify (default: the node's defaults) */
  cores?: Partial<CoreSelection>
  /** where the progress line and the summary go */
  out: (line: string) => void
  progress: (line: string) => void
  timeoutMs?: number
}

/** the node cannot be read (exit 2), as opposed to a block that fails (exit 1) */
export class VerifySourceError extends Error {}

const BATCH = 64
const CONCURRENCY = 8
/** a raw block of 100 ML-DSA transfers is ~500 KB; refuse anything far larger */
const MAX_BODY_BYTES = 16 * 1024 * 1024

async function getJson (base: URL, path: string, timeoutMs: number): Promise<unknown> {
  const url = new URL(path.replace(/^\//, ''), base)
  let res: Response
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) })
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code
    throw new VerifySourceError(`cannot read ${url.href}: ${cause ?? (err as Error).message}`)
  }
  const text = await res.text()
  if (text.length > MAX_BODY_BYTES) throw new VerifySourceError(`${url.href}: answer larger than ${MAX_BODY_BYTES} bytes`)
  if (res.status !== 200) throw new VerifySourceError(`${url.href} answered ${res.status}: ${text.slice(0, 200)}`)
  try {
    return JSON.parse(text)
  } catch {
    throw new VerifySourceError(`${url.href} did not answer JSON`)
  }
}

function networkOf (genesis: unknown): NetworkParams {
  const hash = (genesis as { hash?: unknown } | null)?.hash
  const found = Object.values(NETWORKS).find((p) => genesisBlock(p).hash === hash)
  if (found === undefined) throw new VerifySourceError(`block 0 (${String(hash).slice(0, 16)}…) is the genesis of no network this program knows`)
  return found
}

export async function runVerify (o: VerifyOptions): Promise<number> {
  const timeoutMs = o.timeoutMs ?? 10_000
  let base: URL
  try {
    base = new URL(o.node.endsWith('/') ? o.node : `${o.node}/`)
  } catch {
    throw new VerifySourceError(`--node '${o.node}' is not a URL`)
  }
  const raw = (h: number): Promise<Block> => getJson(base, `/api/explorer/block/${h}/raw`, timeoutMs) as Promise<Block>
  const stats = await getJson(base, '/api/explorer/stats', timeoutMs) as { height?: unknown }
  if (typeof stats.height !== 'number') throw new VerifySourceError('/api/explorer/stats has no height')
  const genesis = await raw(0)
  const params = networkOf(genesis)
  const from = Math.max(1, o.from ?? 1)
  const to = Math.min(stats.height, o.to ?? stats.height)
  if (from > to) {
    o.out(`nothing to verify: --from ${from} is above --to ${to} (the node's tip is ${stats.height})`)
    return 0
  }

  // the node's default cores unless --core names others (a WASM BLS core is instantiated here)
  const cores = new Cores(o.cores)
  await cores.ready()
  const verifier = new ChainVerifier(params, undefined, cores)
  // context: the blocks of the difficulty window before `from` (the first checked block's parent among them)
  const contextFrom = Math.max(0, from - retargetTimestampCount(params))
  for (let h = contextFrom; h < from; h++) verifier.seed(h === 0 ? genesis : await raw(h))

  const started = Date.now()
  const total = to - from + 1
  for (let start = from; start <= to; start += BATCH) {
    const heights = Array.from({ length: Math.min(BATCH, to - start + 1) }, (_, i) => start + i)
    const blocks: Block[] = []
    for (let i = 0; i < heights.length; i += CONCURRENCY) blocks.push(...await Promise.all(heights.slice(i, i + CONCURRENCY).map(raw)))
    verifier.checkBatch(blocks)
    const done = start - from + heights.length
    const rate = done / Math.max(0.001, (Date.now() - started) / 1000)
    o.progress(`verified ${done}/${total} blocks (height ${start + heights.length - 1}), ${rate.toFixed(0)} blocks/s, ${verifier.failures.length} failing`)
  }

  const t = verifier.tally
  const what = `blocks ${from}..${to} of ${params.name} at ${base.origin}`
  if (verifier.failures.length === 0) {
    o.out(`OK: ${what}: linkage, timestamps, difficulty schedule, header hashes, proof-of-work, merkle roots and ${t.attestations} attestations hold; ` +
      `${t.beaconRounds} beacon rounds quoted (${t.distinctRounds} distinct, every BLS signature verified under this program's pinned keys); ${t.unverifiable} block(s) without beacon evidence`)
    return 0
  }
  o.out(`FAILED: ${what}: ${verifier.failures.length} of ${t.blocks} blocks do not hold`)
  for (const f of verifier.failures.slice(0, 50)) o.out(`  block ${f.height}: ${f.code}: ${f.reason}`)
  if (verifier.failures.length > 50) o.out(`  … and ${verifier.failures.length - 50} more`)
  return 1
}
