// A node that joins late syncs a 520-block chain from a real peer process, header-first,
// and produces nothing while it is syncing.
import t from 'tap'
import { NETWORKS } from '../../config/networks.ts'
import { cleanup, mineBlock, openTestChain, tmpDir } from '../helpers/chain.ts'
import { spawnNode, waitUntil } from '../plugins/p2p/fixtures/processes.ts'
import type { NodeProcess } from '../plugins/p2p/fixtures/processes.ts'

const BLOCKS = 520

/** Builds the chain straight into a data dir (devnet difficulty is 2: a few hundred hashes a block). */
async function prebuild (dir: string): Promise<string[]> {
  const tc = await openTestChain(NETWORKS.devnet, dir)
  try {
    for (let i = 0; i < BLOCKS; i++) await tc.chain.processBlock(mineBlock(NETWORKS.devnet, tc.tipRef(), { difficulty: 2 }), 'test')
    return [1, 100, 250, BLOCKS].map((h) => tc.chain.hashAtHeight(h) as string)
  } finally {
    await tc.close()
  }
}

t.test(`a node joining late syncs ${BLOCKS} blocks and produces none while syncing`, async (t) => {
  const dirA = tmpDir('ledger-e2e-a-')
  const expected = await prebuild(dirA)
  const nodes: NodeProcess[] = []
  t.teardown(async () => { for (const n of nodes) { await n.stop(); cleanup(n.dataDir) } })
  const a = await spawnNode({ name: 'a', dataDir: dirA })
  nodes.push(a)
  t.equal((await a.state()).height, BLOCKS)
  const c = await spawnNode({ name: 'c', peers: [a.address], produce: true, intervalMs: 200 })
  nodes.push(c)
  await waitUntil(`c to hold a's ${BLOCKS} blocks`, async () => (await c.state()).height >= BLOCKS, 60_000)

  const lines = c.log.map((l) => { try { return JSON.parse(l) as { msg?: string, time?: number, decided_at?: number } } catch { return {} } })
  // Under load a sync may end early (a request timing out) and start again: no block may be
  // decided on from any sync's start to its finish line, whatever its end height.
  const intervals: Array<[number, number]> = []
  let openedAt: number | null = null
  for (const l of lines) {
    if (l.msg === 'sync started') openedAt = l.time ?? null
    else if (openedAt !== null && l.msg?.startsWith('sync finished at height ') === true) { intervals.push([openedAt, l.time ?? Infinity]); openedAt = null }
  }
  t.ok(intervals.length >= 1 && openedAt === null, 'the log shows the sync from start to finish')
  const producedWhileSyncing = lines.filter((l) => l.msg === 'produced block' && intervals.some(([from, to]) => (l.decided_at ?? 0) >= from && (l.decided_at ?? 0) <= to))
  t.same(producedWhileSyncing, [], 'nothing produced while syncing')
  t.equal((await c.state()).sync_state, 'synced')
  // c's own blocks from before the handshake (if any) were reorganized away
  for (const [i, h] of [1, 100, 250, BLOCKS].entries()) t.equal(await blockHash(c, h), expected[i], `c has a's block ${h}`)
  // once synced, c produces again and a (which produces nothing) receives its blocks
  await waitUntil('a to receive blocks c produced after the sync', async () => (await a.state()).height > BLOCKS)
})

async function blockHash (n: NodeProcess, height: number): Promise<string | null> {
  return ((await n.request('GET', `/block/${height}`)).json as { hash: string | null }).hash
}
