// A node that joins late syncs a 520-block chain from a real peer process, header-first,
// and produces nothing while it is syncing.
import t from 'tap'
import { NETWORKS } from '../../config/networks.ts'
import { cleanup, mineBlock, openTestChain, tmpDir } from '../helpers/chain.ts'
import { spawnNode, waitUntil } from '../plugins/p2p/fixtures/processes.ts'
import type { NodeProcess } from '../plugins/p2p/fixtures/processes.ts'

const BLOCKS = 520

/** Builds the chain straight into a data dir (devnet difficulty is 2: a few hundred hashes a block); its hashes by height. */
async function prebuild (dir: string): Promise<string[]> {
  const tc = await openTestChain(NETWORKS.devnet, dir)
  try {
    for (let i = 0; i < BLOCKS; i++) await tc.chain.processBlock(mineBlock(NETWORKS.devnet, tc.tipRef(), { difficulty: 2 }), 'test')
    return Array.from({ length: BLOCKS + 1 }, (_, h) => tc.chain.hashAtHeight(h) as string)
  } finally {
    await tc.close()
  }
}

interface ProducedBlock { height: number, hash: string, previous_hash: string }

t.test(`a node joining late syncs ${BLOCKS} blocks and produces none while syncing`, async (t) => {
  const dirA = tmpDir('ledger-e2e-a-')
  const chainOfA = await prebuild(dirA)
  const nodes: NodeProcess[] = []
  t.teardown(async () => { for (const n of nodes) { await n.stop(); cleanup(n.dataDir) } })
  const a = await spawnNode({ name: 'a', dataDir: dirA })
  nodes.push(a)
  t.equal((await a.state()).hash, chainOfA[BLOCKS], `a serves its ${BLOCKS} blocks`)
  const c = await spawnNode({ name: 'c', peers: [a.address], produce: true, intervalMs: 200 })
  nodes.push(c)

  // caught up: a's tip is on c's main chain, and with it (hash-linked) every block below it;
  // c's own blocks from before the handshake (if any) were reorganized away
  await waitUntil(`c to hold a's ${BLOCKS} blocks`, async () => (await blockHash(c, BLOCKS)) === chainOfA[BLOCKS], 60_000)
  t.equal((await c.state()).sync_state, 'synced', 'c counts itself synced')
  // once synced, c produces again and a (which produces nothing) takes its blocks
  await waitUntil('a to receive blocks c produced after the sync', async () => (await a.state()).height > BLOCKS)
  await c.request('POST', '/produce', { on: false })
  await waitUntil('a and c at the same tip', async () => {
    const [sa, sc] = await Promise.all([a.state(), c.state()])
    return sa.hash === sc.hash && sc.height > BLOCKS
  })
  const [tipA, tipC] = await Promise.all([a.state(), c.state()])
  t.equal(tipC.hash, tipA.hash, `a and c at the same tip (height ${tipA.height})`)
  for (const h of [1, 100, 250, BLOCKS]) t.equal(await blockHash(a, h), chainOfA[h], `a's block ${h} stands`)

  // Nothing produced while syncing: while c caught up, its tip was a block of a's chain below
  // a's tip, and a block produced then would have that parent. (A block on genesis could be
  // from before the handshake, when c was alone: allowed.)
  const produced = (await c.request('GET', '/produced')).json as ProducedBlock[]
  const onStaleTip = produced.filter((b) => b.height - 1 >= 1 && b.height - 1 < BLOCKS && b.previous_hash === chainOfA[b.height - 1])
  t.same(onStaleTip.map((b) => b.height), [], 'c built no block on a block of a\'s chain below its tip (heights listed)')
  t.ok(produced.some((b) => b.height > BLOCKS), 'c produced on top of a\'s chain after the sync')
})

async function blockHash (n: NodeProcess, height: number): Promise<string | null> {
  return ((await n.request('GET', `/block/${height}`)).json as { hash: string | null }).hash
}
