// The consensus constants DESIGN 3 fixes, per network.
import t from 'tap'
import crypto from 'node:crypto'
import { NETWORKS, networkParams, FOUNDATION_ADDRESS, DEVNET_DEV_ACCOUNT } from '../../config/networks.ts'
import { BLOCK_VERSION, genesisBlock } from '../../core/chain/genesis.ts'
import { bitsProblem, decodeBits, difficultyOfBits, encodeBits, workOfBits } from '../../core/chain/target.ts'
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

t.test('per-network targets and pacing', async (t) => {
  const { mainnet, testnet, devnet } = NETWORKS
  const d = difficultyOfBits
  // SPEC 8: mainnet's difficulty ceiling is 8; the floor 2, as before the fine target
  t.same([d(mainnet.easiestBits), d(mainnet.hardestBits), mainnet.blockTimeTarget, mainnet.fixedDifficulty], [2, 8, 60, false])
  t.same([testnet.blockTimeTarget, testnet.fixedDifficulty], [5, false])
  t.same([d(testnet.easiestBits), d(testnet.initialBits), d(testnet.hardestBits)], [2, 6, 7], 'testnet: floor 2, starts at 6 (2^25 hashes), ceiling 7')
  for (const p of [mainnet, testnet, devnet]) {
    for (const bits of [p.initialBits, p.easiestBits, p.hardestBits]) t.equal(bitsProblem(bits), undefined, `${p.name}: canonical bits ${bits.toString(16)}`)
    t.ok(decodeBits(p.hardestBits) <= decodeBits(p.initialBits) && decodeBits(p.initialBits) <= decodeBits(p.easiestBits), `${p.name}: the initial target lies inside the bounds`)
    t.equal(encodeBits(decodeBits(p.initialBits)), p.initialBits)
  }
  // the initial testnet target takes 2^25 hashes: 4.5 s at 7.5 M hashes/s, the one miner thread
  // a 2-core machine runs by default
  t.equal(Math.round(Math.log2(Number(workOfBits(testnet.initialBits)))), 25)
  t.equal(devnet.fixedDifficulty, true)
  t.equal(devnet.paceBlocks, true)
  t.same([devnet.easiestBits, devnet.hardestBits], [devnet.initialBits, devnet.initialBits], 'devnet: one fixed target')
  t.equal(d(devnet.initialBits), 2)
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

t.test('genesis is a protocol 2 block carrying the initial target (the chains were reset for it)', async (t) => {
  for (const p of Object.values(NETWORKS)) {
    const g = genesisBlock(p)
    t.equal(g.version, BLOCK_VERSION)
    t.equal(BLOCK_VERSION, 2)
    t.equal(g.bits, p.initialBits, `${p.name}: genesis bits`)
    t.equal(g.difficulty, difficultyOfBits(p.initialBits), `${p.name}: genesis difficulty is its target's leading zeros`)
  }
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
