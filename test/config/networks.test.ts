// The consensus constants DESIGN 3 fixes, per network.
import t from 'tap'
import crypto from 'node:crypto'
import { NETWORKS, networkParams, FOUNDATION_ADDRESS, DEVNET_DEV_ACCOUNT } from '../../config/networks.ts'
import { genesisBlock } from '../../core/chain/genesis.ts'
import { walletFromSeed } from '../../core/chain/wallet.ts'

t.test('values shared by every network', async (t) => {
  for (const p of Object.values(NETWORKS)) {
    t.equal(p.subsidyCoin, 5, `${p.name} subsidy`)
    t.equal(p.halvingInterval, 2_100_000)
    t.equal(p.maxSupplyCoin, 21_000_000)
    t.equal(p.minFeeCoin, 0.0001)
    t.equal(p.maxTxPerBlock, 100)
    t.equal(p.maxReorgDepth, 100)
    t.equal(p.difficultyInterval, 10)
    t.equal(p.attestationMaxSkew, 60)
    t.same(p.healthBounds.monobit, [0.40, 0.60])
    t.same(p.healthBounds.fano, [0.5, 1.5])
    t.equal(p.foundationAddress, FOUNDATION_ADDRESS)
    t.same(p.genesisAllocations[0], { address: '34378b1ba5be9d0999acd60be3a8a1f1', amount: 1_000_000 }, 'premine to the foundation')
    t.equal(networkParams(p.name), p)
  }
})

t.test('per-network difficulty and pacing', async (t) => {
  const { mainnet, testnet, devnet } = NETWORKS
  t.same([mainnet.minDifficulty, mainnet.maxDifficulty, mainnet.blockTimeTarget, mainnet.fixedDifficulty], [2, 8, 60, false])
  t.same([testnet.blockTimeTarget, testnet.fixedDifficulty], [5, false])
  t.ok(testnet.minDifficulty <= testnet.initialDifficulty && testnet.initialDifficulty <= testnet.maxDifficulty)
  t.ok(mainnet.minDifficulty <= mainnet.initialDifficulty && mainnet.initialDifficulty <= mainnet.maxDifficulty)
  t.equal(devnet.fixedDifficulty, true)
  t.equal(devnet.paceBlocks, true)
  t.equal(devnet.minDifficulty, devnet.maxDifficulty)
})

t.test('networks cannot be mistaken for each other', async (t) => {
  const all = Object.values(NETWORKS)
  t.equal(new Set(all.map((p) => p.chainId)).size, 3, 'distinct chain ids')
  t.equal(new Set(all.map((p) => p.magic)).size, 3, 'distinct p2p magic')
  t.equal(new Set(all.map((p) => p.defaultP2pPort)).size, 3)
  t.equal(new Set(all.map((p) => genesisBlock(p).hash)).size, 3, 'distinct genesis blocks')
  t.equal(genesisBlock(NETWORKS.testnet).hash, genesisBlock(NETWORKS.testnet).hash, 'genesis is deterministic')
  for (const p of all) t.match(p.magic, /^[0-9a-f]{8}$/)
})

t.test('trust lists', async (t) => {
  const { mainnet, testnet } = NETWORKS
  t.notOk(mainnet.trustedSources.some((s) => s.includes('self-hosted')), 'mainnet never trusts self-hosted, alone or aggregated')
  t.ok(mainnet.trustedSources.includes('beacon-default'))
  t.ok(testnet.trustedSources.includes('self-hosted'))
  t.ok(testnet.trustedSources.includes('aggregator:beacon-default'), 'SPEC 2.8: testnet trust list includes aggregator:beacon-default')
  t.ok(testnet.trustedSources.some((s) => s.startsWith('aggregator:placeholder')), 'and a placeholder id')
  for (const p of Object.values(NETWORKS)) t.notOk(p.trustedSources.some((s) => /hardware-qrng|vendor-server/.test(s)), `${p.name}: planned sources untrusted`)
})

t.test('the devnet dev account is the documented public key pair', async (t) => {
  t.equal(DEVNET_DEV_ACCOUNT.seed, crypto.createHash('sha3-256').update('ledger devnet dev account').digest('hex'))
  t.equal(walletFromSeed(Buffer.from(DEVNET_DEV_ACCOUNT.seed, 'hex')).address, DEVNET_DEV_ACCOUNT.address)
  t.same(NETWORKS.devnet.genesisAllocations[1], { address: DEVNET_DEV_ACCOUNT.address, amount: DEVNET_DEV_ACCOUNT.balance })
  t.notOk(NETWORKS.mainnet.genesisAllocations.some((a) => a.address === DEVNET_DEV_ACCOUNT.address), 'never funded outside devnet')
  t.notOk(NETWORKS.testnet.genesisAllocations.some((a) => a.address === DEVNET_DEV_ACCOUNT.address))
})
