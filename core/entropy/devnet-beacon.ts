// The devnet beacon (config/entropy-sources.ts DEVNET_BEACON): its key is public, so any devnet
// node (and any test) signs the round of a given moment itself. Signing costs a hash-to-curve
// and a scalar multiplication, so the last rounds signed are remembered.
import { DEVNET_BEACON } from '../../config/entropy-sources.ts'
import { beaconSigner } from './beacon-signer.ts'
import type { BeaconSigner } from './beacon-signer.ts'
import type { DrandBeacon } from './beacon-verify.ts'

let signer: BeaconSigner | null = null
const signed = new Map<number, DrandBeacon>()
const KEEP = 64

export function devnetBeaconSigner (): BeaconSigner {
  signer ??= beaconSigner(DEVNET_BEACON.pin.scheme, Buffer.from(DEVNET_BEACON.seed, 'hex'))
  return signer
}

/** The devnet beacon round published at or before `unixSeconds` (by the pinned schedule), signed. */
export function devnetRoundAt (unixSeconds: number): DrandBeacon {
  const { genesisTime, period } = DEVNET_BEACON.pin
  if (unixSeconds < genesisTime) throw new RangeError(`the devnet beacon starts at ${genesisTime}`)
  return devnetRound(Math.floor((unixSeconds - genesisTime) / period) + 1)
}

export function devnetRound (round: number): DrandBeacon {
  let b = signed.get(round)
  if (b === undefined) {
    b = devnetBeaconSigner().sign(round)
    if (signed.size >= KEEP) signed.delete(signed.keys().next().value as number)
    signed.set(round, b)
  }
  return { ...b }
}
