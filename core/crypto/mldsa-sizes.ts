// ML-DSA-87 (FIPS 204) byte sizes, apart from mldsa.ts so that the cores it assembles
// (mldsa-wasm.ts) read them without importing the module that imports them.
export const PUBLIC_KEY_BYTES = 2592
export const SIGNATURE_BYTES = 4627
export const SEED_BYTES = 32
