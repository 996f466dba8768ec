// The node the follow crash probe SIGKILLs: a chain on RocksDB and its followers, as the
// consensus plugin builds them, with an indexer follower (FollowIndex, SQLite, cursor written
// with its data). It drives its own random reorgs: from the tip it goes back 1-20 blocks and
// connects a branch 1-3 blocks longer (so heavier: it wins), each reorg's choices seeded by its
// number, and records how many reorgs are done in `progress.json` after each. Started again on
// the same dir it carries on from whatever the kill left (a half-fed branch is side blocks; the
// follower resumes from the index's cursor). Once `--reorgs` are done it waits for the indexer
// to reach the tip, compares its tables with ones recomputed from the best chain and prints
// one JSON line with the result.
//
//   node bench/lib/follow-crash-node.ts --dir DIR --reorgs 1000 [--seed 29]
import path from 'node:path'
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import type { Block } from '../../core/chain/types.ts'
import { envelopeAt } from '../../core/chain/attestation-builder.ts'
import { assembleBlock } from '../../core/chain/template.ts'
import { bitsTargetBytes } from '../../core/chain/target.ts'
import { coinToBohm } from '../../core/chain/money.ts'
import { getPowCore } from '../../core/pow/pow-core.ts'
import { seededRandom } from '../../testbed/runner/random.ts'
import { benchParams, openFollowedChain } from './chain-fixture.ts'
import { compareIndex, FollowIndex, recompute } from './follow-index.ts'
import type { IndexComparison } from './follow-index.ts'

export interface CrashNodeResult extends IndexComparison { reorgs: number; height: number; blocks: number }

const { values } = parseArgs({ options: { dir: { type: 'string' }, reorgs: { type: 'string', default: '1000' }, seed: { type: 'string', default: '29' } } })
if (values.dir === undefined) throw new Error('--dir is required')
const dir = values.dir
const target = Number(values.reorgs)
const seed = Number(values.seed)
const params = benchParams()
const progressFile = path.join(dir, 'progress.json')
const readProgress = (): number => existsSync(progressFile) ? (JSON.parse(readFileSync(progressFile, 'utf8')) as { reorgs: number }).reorgs : 0
const writeProgress = (reorgs: number): void => {
  writeFileSync(`${progressFile}.tmp`, JSON.stringify({ reorgs }))
  renameSync(`${progressFile}.tmp`, progressFile)
}

// miners: whose coinbase the index credits, so balances spread over many rows
const miners = Array.from({ length: 32 }, (_, i) => Buffer.from(seededRandomBytes(seed * 1000 + i)).toString('hex'))
function seededRandomBytes (s: number): Uint8Array {
  const r = seededRandom(s)
  return Uint8Array.from({ length: 16 }, () => Math.floor(r() * 256))
}
const supply = params.genesisAllocations.reduce((sum, a) => sum + coinToBohm(a.amount), 0n)

/** an empty block on `parent`, sealed at the bench's difficulty 1 (~16 hashes) */
function blockOn (parent: { hash: string; height: number; timestamp: number }, miner: string, timestamp: number): Block {
  const attestation = envelopeAt(params, timestamp, { device: 'bench', proofType: 'bench' })
  const { block, prefix } = assembleBlock(params, { parent, miner, transactions: [], timestamp, bits: params.initialBits, supply, attestation })
  const sealed = getPowCore('wasm').search(prefix, 0, 1 << 24, bitsTargetBytes(block.bits))
  if (!sealed.found || sealed.hash === null) throw new Error('no nonce found for a probe block')
  block.nonce = sealed.nonce
  block.hash = Buffer.from(sealed.hash).toString('hex')
  return block
}

const { chain, db, followers } = await openFollowedChain(params, dir)
const index = new FollowIndex(path.join(dir, 'index.sqlite'))
const follower = followers.follow('probe/indexer', (n) => { index.apply(n) }, { cursor: { load: () => index.cursor() } })
await followers.start()
// for a parent that times its kill from here (--kill-from ready)
console.log('ready')

let reorgs = readProgress()
// a first stretch so the early reorgs have depth to go back
if (chain.tip().height < 20) {
  let at = await chain.getBlockByHeight(chain.tip().height) as Block
  while (at.height < 21) {
    const b = blockOn(at, miners[at.height % miners.length] as string, at.timestamp + 1)
    await chain.processBlock(b, 'test')
    at = b
  }
}
while (reorgs < target) {
  const random = seededRandom(seed * 1_000_003 + reorgs)
  const tip = chain.tip()
  const depth = 1 + Math.floor(random() * 20)
  const fork = await chain.getBlockByHeight(Math.max(0, tip.height - depth)) as Block
  const replaced = await chain.getBlockByHeight(fork.height + 1)
  const length = tip.height - fork.height + 1 + Math.floor(random() * 3)
  let at: Block = fork
  let last = ''
  for (let i = 0; i < length; i++) {
    let miner = miners[Math.floor(random() * miners.length)] as string
    // the branch's first block differs from the one it replaces (another miner)
    if (i === 0 && miner === replaced?.miner) miner = miners[(miners.indexOf(miner) + 1) % miners.length] as string
    const b = blockOn(at, miner, at.timestamp + 1 + Math.floor(random() * 2))
    // a yield between blocks, as blocks from peers arrive, so the follower runs alongside
    await chain.processBlock(b, 'test')
    await new Promise((resolve) => setImmediate(resolve))
    at = b
    last = b.hash
  }
  if (chain.tip().hash !== last) throw new Error(`reorg ${reorgs + 1}: the branch did not become the best chain`)
  reorgs++
  writeProgress(reorgs)
}

const deadline = Date.now() + 600_000
while (follower.position?.hash !== chain.tip().hash) {
  if (Date.now() > deadline) throw new Error(`the indexer did not reach the tip in 10 minutes (at ${JSON.stringify(follower.position)})`)
  await new Promise((resolve) => setTimeout(resolve, 50))
}
await followers.stop()
const best: Block[] = []
for (let h = 0; h <= chain.tip().height; h++) best.push(await chain.getBlockByHeight(h) as Block)
const result: CrashNodeResult = { reorgs, height: chain.tip().height, blocks: best.length, ...compareIndex(index.tables(), recompute(best)) }
index.close()
await db.close()
console.log(JSON.stringify(result))
