// Builds the chains the sync and http families need: N blocks in memory (empty, or each
// carrying `txPerBlock` signed transfers between funded senders), and connecting them into a
// chain on disk through Chain.processBlock, the path every block takes.
import { generateWallet } from '../../core/chain/wallet.ts'
import type { Wallet } from '../../core/chain/wallet.ts'
import type { Block } from '../../core/chain/types.ts'
import type { NetworkParams } from '../../core/chain/params.ts'
import { verifiedBeacons } from '../../core/entropy/beacon-cache.ts'
import { DEFAULT_BLOCKS_PER_REQUEST, rampedChunks } from '../../plugins/p2p/sync.ts'
import { BlockSequence, benchTmpDir, devAccount, openBenchChain, randomAddress, transfer } from './chain-fixture.ts'

export interface ChainShape {
  blocks: number
  /** signed transfers in a block that carries them (0: empty blocks, coinbase only) */
  txPerBlock: number
  /** how many blocks carry transfers (default: all); they come last, before `trailingEmpty` */
  txBlocks?: number
  /** empty blocks after the ones with transfers (default 0) */
  trailingEmpty?: number
}

export interface BuiltChain {
  blocks: Block[]
  /** the wallets that sent the transfers (empty for empty blocks) */
  senders: Wallet[]
}

/**
 * The blocks of a chain of that shape, in order from height 1. The first block with
 * transfers funds the senders from the devnet account; every later one has each sender pay
 * a fresh address once. Each sender's first transfer carries its public key, as a wallet's does.
 */
export function buildBlocks (params: NetworkParams, shape: ChainShape, progress: (message: string) => void): BuiltChain {
  const seq = new BlockSequence(params, devAccount().address)
  // blocks spaced as the network paces them (devnet: 2 s against a 3 s beacon period), so the
  // share of blocks quoting a round no earlier block quoted is the network's own
  seq.step = params.blockTimeTarget
  const trailing = shape.trailingEmpty ?? 0
  const firstTxBlock = shape.txPerBlock > 0 ? shape.blocks - trailing - (shape.txBlocks ?? shape.blocks - trailing) + 1 : Infinity
  const lastTxBlock = shape.blocks - trailing
  const blocks: Block[] = []
  const every = Math.max(1, Math.floor(shape.blocks / 5))
  const senders: Wallet[] = []
  let nonce = 0
  for (let height = 1; height <= shape.blocks; height++) {
    const ts = seq.nextTimestamp
    if (height < firstTxBlock || height > lastTxBlock) {
      blocks.push(seq.next())
    } else if (height === firstTxBlock) {
      const dev = devAccount()
      senders.push(...Array.from({ length: shape.txPerBlock }, () => generateWallet()))
      blocks.push(seq.next(senders.map((w, i) => transfer(params, dev, w.address, 1000, i, ts, i === 0))))
    } else {
      blocks.push(seq.next(senders.map((w) => transfer(params, w, randomAddress(), 0.01, nonce, ts, nonce === 0))))
      nonce++
    }
    if (height % every === 0) progress(`built ${height.toLocaleString('en-US')}/${shape.blocks.toLocaleString('en-US')} blocks`)
  }
  return { blocks, senders }
}

/**
 * Connects `blocks` into a fresh chain under a new temp dir; returns the dir, the seconds it
 * took and the process's CPU meanwhile. With `progress`, reports every fifth of the way (for
 * chains that take a while).
 */
export async function connectChain (params: NetworkParams, blocks: Block[], label: string, progress?: (message: string) => void): Promise<{ dir: string; seconds: number; cpuMs: number }> {
  const dir = benchTmpDir(label)
  return { dir, ...await connectChainInto(params, blocks, dir, progress) }
}

/**
 * connectChain into `dir`, an empty directory the caller made (and removes).
 *
 * As a syncing node connects a download: in runs as its requests cut them (8, 16, 32, then 64
 * blocks), each run's beacon rounds batch-verified on the verify pool (two pairings a batch),
 * the next run's while this one's blocks connect, and each block's signatures checked while the
 * one before it connects (ProcessOptions.next).
 */
export async function connectChainInto (params: NetworkParams, blocks: Block[], dir: string, progress?: (message: string) => void): Promise<{ seconds: number; cpuMs: number }> {
  const bc = await openBenchChain(params, dir)
  const every = Math.max(1, Math.floor(blocks.length / 5))
  try {
    // The threads are up before the clock starts, as a node's are while it connects to its
    // peers; and none of the rounds are known verified, as for a fresh node: without clearing
    // the process-wide cache every run after the first found them all there and connected
    // without a single pairing.
    await bc.verifier?.started()
    verifiedBeacons.clear()
    const started = performance.now()
    const cpuBefore = process.cpuUsage()
    const runs = rampedChunks(blocks, DEFAULT_BLOCKS_PER_REQUEST)
    const beaconsOf = (run: Block[] | undefined): Promise<void> => {
      const p = run === undefined ? Promise.resolve() : bc.chain.preverifyBeacons(run)
      p.catch(() => undefined) // awaited when its run connects
      return p
    }
    let beacons = beaconsOf(runs[0])
    let connected = 0
    for (const [r, run] of runs.entries()) {
      await beacons
      beacons = beaconsOf(runs[r + 1])
      for (const [k, block] of run.entries()) {
        const following = run[k + 1]
        const result = await bc.chain.processBlock(block, 'test', following === undefined ? {} : { next: { block: following } })
        if (result.status !== 'connected') throw new Error(`block ${block.height} was ${result.status}, not connected`)
        connected++
        if (progress !== undefined && connected % every === 0) {
          progress(`connected ${connected.toLocaleString('en-US')}/${blocks.length.toLocaleString('en-US')} blocks (${Math.round(connected / ((performance.now() - started) / 1000)).toLocaleString('en-US')} blocks/s)`)
        }
      }
    }
    const seconds = (performance.now() - started) / 1000
    const cpu = process.cpuUsage(cpuBefore)
    return { seconds, cpuMs: (cpu.user + cpu.system) / 1000 }
  } finally {
    await bc.close()
  }
}

export { randomAddress }
