// Verdicts for many beacon rounds at once (sync, `ledger verify`, the verify pool): the rounds
// of one beacon are checked together with a random linear combination (BlsCore.
// batchPairingHolds: two Miller loops and one final exponentiation per run instead of two
// pairings per round); a failed run is re-checked round by round so the bad round is named
// and the good ones still count.
import { randomBytes } from 'node:crypto'
import { assertOneBeacon, batchScalars } from '../crypto/bls.ts'
import type { BeaconPairingInput, BlsCore } from '../crypto/bls.ts'

/** True when every input verifies; all inputs must share one scheme and one public key. */
export function batchPairingHolds (core: BlsCore, inputs: readonly BeaconPairingInput[], random: (n: number) => Uint8Array = randomBytes): boolean {
  const first = inputs[0]
  if (first === undefined) return true
  if (inputs.length === 1) return core.pairingHolds(first)
  assertOneBeacon(inputs)
  return core.batchPairingHolds(inputs, batchScalars(inputs.length, random))
}

/** One verdict per input, in order. */
export function verifyPairings (core: BlsCore, inputs: readonly BeaconPairingInput[]): boolean[] {
  const groups = new Map<string, number[]>()
  inputs.forEach((p, i) => {
    const key = `${p.scheme}|${Buffer.from(p.publicKey).toString('hex')}`
    const g = groups.get(key)
    if (g === undefined) groups.set(key, [i])
    else g.push(i)
  })
  const out = new Array<boolean>(inputs.length).fill(false)
  for (const idx of groups.values()) {
    const batch = idx.map((i) => inputs[i] as BeaconPairingInput)
    if (batchPairingHolds(core, batch)) { for (const i of idx) out[i] = true; continue }
    for (const i of idx) out[i] = core.pairingHolds(inputs[i] as BeaconPairingInput)
  }
  return out
}
