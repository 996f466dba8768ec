// The schemes live in core (validators verify beacon evidence too); re-exported for the sources.
export { DRAND_SCHEMES, DRAND_SCHEME_IDS, isDrandScheme, beaconMessage } from '../../../core/entropy/drand-schemes.ts'
export type { DrandScheme, SchemeRule } from '../../../core/entropy/drand-schemes.ts'
