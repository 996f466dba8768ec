// Probe (not part of `ledger bench`): the explorer's block route on a 10,000-block chain (the
// http family's shape), cold (every height asked once, in random order) and warm (random
// heights), against the bare route. Keeps the chain in --dir between invocations. For a CPU
// profile of the explorer process: NODE_OPTIONS="--cpu-prof --cpu-prof-dir=DIR".
//   node bench/explorer-probe.ts [--dir DIR] [--seconds 3] [--phase all|cold|warm]
import fs from 'node:fs'
import crypto from 'node:crypto'
import { parseArgs } from 'node:util'
import { benchParams } from './lib/chain-fixture.ts'
import { buildBlocks, connectChain } from './lib/chain-builder.ts'
import { startChild } from './lib/child.ts'
import { loadSample } from './lib/load.ts'

const { values } = parseArgs({ options: { dir: { type: 'string' }, seconds: { type: 'string', default: '3' }, phase: { type: 'string', default: 'all' } } })
const params = benchParams()
let dir = values.dir
if (dir === undefined || !fs.existsSync(dir)) {
  const built = buildBlocks(params, { blocks: 10_000, txPerBlock: 20, txBlocks: 100 }, (m) => { console.error(m) })
  const chain = await connectChain(params, built.blocks, 'probe', (m) => { console.error(m) })
  if (dir !== undefined) fs.renameSync(chain.dir, dir)
  else dir = chain.dir
}
const explorer = startChild({ role: 'explorer', dataDir: dir })
const bare = startChild({ role: 'bare-fastify' })
try {
  const node = (await explorer.next('ready', 60_000)).port
  const anchor = (await bare.next('ready', 60_000)).port
  const seconds = Number(values.seconds)
  const run = async (label: string, port: number, next: () => string, amount?: number): Promise<void> => {
    const s = await loadSample({ port, nextPath: next, connections: 4, ...(amount !== undefined ? { amount } : { seconds }) })
    console.log(`${label.padEnd(28)} ${s.requestsPerSecond.toFixed(0).padStart(7)} req/s  p99 ${s.p99Ms} ms`)
  }
  const order = [...Array(10_001).keys()].sort(() => Math.random() - 0.5)
  let i = 0
  const phase = values.phase
  if (phase === 'all') await run('bare', anchor, () => '/')
  if (phase !== 'warm') await run('block cold (each once)', node, () => `/api/explorer/block/${order[i++ % order.length]}`, 10_001)
  if (phase !== 'cold') await run('block warm (random)', node, () => `/api/explorer/block/${crypto.randomInt(10_001)}`)
  if (phase === 'all') await run('bare', anchor, () => '/')
} finally {
  await explorer.stop()
  await bare.stop()
}
