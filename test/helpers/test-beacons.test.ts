// The test beacons' public keys are written out in helpers/chain.ts (deriving them costs every
// test process ~0.2 s); they must be the keys the test signers really sign with.
import t from 'tap'
import { TEST_BEACON_PUBLIC_KEYS, TEST_BEACON_SIGNERS, TEST_REGISTRY } from './chain.ts'

t.test('each written-out test beacon key is its signer\'s, and the test registry pins it', async (t) => {
  for (const [id, signer] of Object.entries(TEST_BEACON_SIGNERS)) {
    t.equal(signer.publicKey, TEST_BEACON_PUBLIC_KEYS[id as keyof typeof TEST_BEACON_SIGNERS], id)
    t.equal(TEST_REGISTRY.find((e) => e.id === id)?.beacon?.publicKey, signer.publicKey, `${id} in the registry`)
  }
})
