// The node's persistent peer identity: an Ed25519 key in <dataDir>/node.key (libp2p's
// protobuf key encoding, mode 0600), so the peer id survives restarts and bans of it stick.
import path from 'node:path'
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { generateKeyPair, privateKeyFromProtobuf, privateKeyToProtobuf } from '@libp2p/crypto/keys'
import type { PrivateKey } from '@libp2p/interface'

export const NODE_KEY_FILE = 'node.key'

export interface NodeIdentity { privateKey: PrivateKey; file: string; created: boolean }

export async function loadOrCreateIdentity (dataDir: string): Promise<NodeIdentity> {
  const file = path.join(dataDir, NODE_KEY_FILE)
  if (existsSync(file)) {
    // A key readable by others is a key others may have copied; tighten it rather than refuse.
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600)
    let privateKey: PrivateKey
    try {
      privateKey = privateKeyFromProtobuf(readFileSync(file))
    } catch (err) {
      throw new Error(`${file} is not a valid peer key (${(err as Error).message}); move it away to create a new identity`)
    }
    return { privateKey, file, created: false }
  }
  const privateKey = await generateKeyPair('Ed25519')
  writeFileSync(file, privateKeyToProtobuf(privateKey), { mode: 0o600, flag: 'wx' })
  return { privateKey, file, created: true }
}
