// Beacon verification lives in core (every validator runs it on block evidence); re-exported here.
export { verifyBeacon, BeaconVerificationError } from '../../../core/entropy/beacon-verify.ts'
export type { DrandBeacon, DrandChainKey } from '../../../core/entropy/beacon-verify.ts'
