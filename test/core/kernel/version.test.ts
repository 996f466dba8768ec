// The node version string `<protocol>-<network>` and the protocol number peers are matched on.
import t from 'tap'
import { nodeVersion, protocolOfVersion, PROTOCOL_VERSION } from '../../../core/kernel/version.ts'
import { NETWORKS } from '../../../config/networks.ts'

t.test('protocol 2 (the full-precision target) in every network\'s version string', async (t) => {
  t.equal(PROTOCOL_VERSION, 2)
  t.equal(nodeVersion(NETWORKS.testnet), '2-testnet')
  t.equal(nodeVersion(NETWORKS.devnet), '2-devnet')
  for (const p of Object.values(NETWORKS)) t.equal(protocolOfVersion(nodeVersion(p)), PROTOCOL_VERSION)
})

t.test('protocolOfVersion reads the leading number and nothing else', async (t) => {
  t.equal(protocolOfVersion('1-testnet'), 1)
  t.equal(protocolOfVersion('12-devnet'), 12)
  for (const v of ['', 'testnet', '-2-testnet', 'x2-testnet', '2', '2testnet', '1234567890-testnet']) t.equal(protocolOfVersion(v), undefined, JSON.stringify(v))
})
