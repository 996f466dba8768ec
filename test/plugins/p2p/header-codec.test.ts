import t from 'tap'
import { decodeHeaderHex, encodeHeaderHex } from '../../../plugins/p2p/header-codec.ts'
import { WireError } from '../../../plugins/p2p/protocol.ts'
import { genesisBlock } from '../../../core/chain/genesis.ts'
import { mineBlock, testParams } from '../../helpers/chain.ts'
import { jsPowCore } from '../../../core/pow/pow-js.ts'

t.test('a header decodes to the fields and the hash of the block it was encoded from', async (t) => {
  const params = testParams()
  const g = genesisBlock(params)
  const block = mineBlock(params, { hash: g.hash, height: 0, timestamp: g.timestamp }, { timestamp: g.timestamp + 12.345 })
  const h = decodeHeaderHex(encodeHeaderHex(block), jsPowCore)
  t.equal(h.hash, block.hash, 'hash of the 272 bytes is the block hash')
  t.equal(h.height, 1)
  t.equal(h.timestamp, block.timestamp)
  t.equal(h.previous_hash, g.hash)
  t.equal(h.bits, block.bits, 'the compact target at offset 148')
  t.equal(h.version, block.version)
})

t.test('anything but 272 bytes of lowercase hex is refused', async (t) => {
  t.throws(() => decodeHeaderHex('00', jsPowCore), WireError)
  t.throws(() => decodeHeaderHex('zz'.repeat(272), jsPowCore), WireError)
  t.throws(() => decodeHeaderHex('AA'.repeat(272), jsPowCore), WireError)
})
