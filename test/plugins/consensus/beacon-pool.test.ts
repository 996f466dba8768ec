// Beacon pairings run on the chain's verify pool (beside the ML-DSA checks) with the same
// verdicts as inline verification, and sync batch-verifies a run of rounds before the blocks
// are processed one by one.
import t from 'tap'
import crypto from 'node:crypto'
import { mineBlock, makeAttestation, rederive, testParams } from '../../helpers/chain.ts'
import { BlockError, BlockErrorCode } from '../../../core/chain/errors.ts'
import { beaconPairingsOf } from '../../../core/chain/attestation.ts'
import { verifiedBeacons } from '../../../core/entropy/beacon-cache.ts'
import { beaconSigner } from '../../../core/entropy/beacon-signer.ts'
import { DEVNET_BEACON } from '../../../config/entropy-sources.ts'
import type { Block } from '../../../core/chain/types.ts'
import { startChainNode, refOf } from './reorg-helpers.ts'
import type { Chain } from '../../../plugins/consensus/chain.ts'

const params = testParams()
const stranger = beaconSigner('bls-unchained-g1-rfc9380', crypto.randomBytes(48))

t.test('pairings on the pool: a forged round is refused with the inline reason, a good one connects', async (t) => {
  const node = await startChainNode(params)
  t.teardown(() => node.stop())
  const at = Date.now() / 1000
  const block = (attestation = makeAttestation(at)): Block => mineBlock(params, refOf(node.chain.tip()), { timestamp: at, attestation })
  const forgedNow = (() => {
    const e = makeAttestation(at)
    const r = stranger.sign(e.beacons[0]!.round)
    return rederive({ ...e, beacons: [{ ...e.beacons[0]!, signature: r.signature, randomness: r.randomness }] })
  })()
  try {
    await node.chain.processBlock(block(forgedNow), 'test')
    t.fail('a round signed by another key must be refused')
  } catch (err) {
    t.ok(err instanceof BlockError)
    t.equal((err as BlockError).code, BlockErrorCode.ATTESTATION_BEACON_BAD_SIGNATURE)
    t.match((err as Error).message, /BLS signature does not verify under the registry's beacon-devnet key/)
  }
  t.equal((await node.chain.processBlock(block(), 'test')).status, 'connected')
})

t.test('sync: a run of rounds is batch-verified; the good ones are cached, a bad one is left to its block', async (t) => {
  const node = await startChainNode(params)
  t.teardown(() => node.stop())
  const chain = node.chain as Chain
  // rounds from a day the other tests never quote
  const base = DEVNET_BEACON.pin.genesisTime + 200 * 24 * 3600
  const blocks: Block[] = Array.from({ length: 12 }, (_, i) => ({ quantum_signature: { qrng_attestation: makeAttestation(base + i * 3) } }) as Block)
  const bad = makeAttestation(base + 100 * 3)
  const r = stranger.sign(bad.beacons[0]!.round)
  const badBlock = { quantum_signature: { qrng_attestation: rederive({ ...bad, beacons: [{ ...bad.beacons[0]!, signature: r.signature, randomness: r.randomness }] }) } } as Block
  const wanted = beaconPairingsOf(params, [...blocks, badBlock])
  t.equal(wanted.length, 13, 'one pairing per distinct round')
  t.ok(wanted.every((w) => !verifiedBeacons.has(w.cacheKey)), 'none cached before')
  await chain.preverifyBeacons([...blocks, badBlock, { quantum_signature: 'junk' } as unknown as Block])
  t.ok(wanted.slice(0, 12).every((w) => verifiedBeacons.has(w.cacheKey)), 'the good rounds are cached')
  t.notOk(verifiedBeacons.has(wanted[12]!.cacheKey), 'the forged round is not')
  t.equal(beaconPairingsOf(params, blocks).length, 0, 'nothing left to pair for the good blocks')
})
