// The "mined block" log line counts transactions as the explorer does (issue 14 item 15): a
// block holding only its coinbase is txs 1, not 0.
import t from 'tap'
import { minedBlockLogFields } from '../../../plugins/miner/miner.ts'
import { summaryOfBlock } from '../../../core/views/block-view.ts'
import { devWallet, generateWallet, makeAttestation, mineBlock, testParams, transfer } from '../../helpers/chain.ts'

t.test('txs in the log equals the explorer tx_count', async (t) => {
  const params = testParams()
  const genesisLike = { hash: '00'.repeat(64), height: 0, timestamp: params.genesisTimestamp }
  const coinbaseOnly = mineBlock(params, genesisLike)
  t.equal(coinbaseOnly.transactions.length, 1, 'the coinbase')
  t.equal(minedBlockLogFields(coinbaseOnly, 'self-hosted').txs, 1)
  t.equal(minedBlockLogFields(coinbaseOnly, 'self-hosted').txs, summaryOfBlock(coinbaseOnly).tx_count)
  const pay = transfer(params, devWallet(), generateWallet().address, 1, 0, { withKey: true })
  const withTransfer = mineBlock(params, genesisLike, { txs: [pay] })
  t.equal(minedBlockLogFields(withTransfer, 'self-hosted').txs, 2)
  t.equal(minedBlockLogFields(withTransfer, 'self-hosted').txs, summaryOfBlock(withTransfer).tx_count)
})

t.test('the "mined block" line says what the attestation proves', async (t) => {
  const params = testParams()
  const genesisLike = { hash: '00'.repeat(64), height: 0, timestamp: params.genesisTimestamp }
  t.equal(minedBlockLogFields(mineBlock(params, genesisLike), 'aggregator:beacon-devnet+self-hosted').evidence, 'beacon-verified')
  const ts = params.genesisTimestamp + 1
  const selfHosted = mineBlock(params, genesisLike, { timestamp: ts, attestation: makeAttestation(ts, { source: 'self-hosted' }) })
  t.equal(minedBlockLogFields(selfHosted, 'aggregator:self-hosted').evidence, 'no-evidence', 'a block without beacon rounds is not logged as proven')
})
