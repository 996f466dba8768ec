// What the AssemblyScript core asks of its JS host (core/vm/wasm/interpreter.ts). Words cross
// as pointers to 32-byte little-endian words; gas crosses as f64 (exact below 2^53).

/** storage[slot] of the executing contract into `out` */
@external("vm", "sload") export declare function hostSload (slot: usize, out: usize): void

/**
 * Writes storage[slot] = value when `gasLeft` covers the zero-to-non-zero surcharge; returns
 * the surcharge taken (0 or GAS_SSTORE_SET_EXTRA), or -1 (nothing written) when it does not.
 */
@external("vm", "sstore") export declare function hostSstore (slot: usize, value: usize, gasLeft: f64): i32

/** balance of the address in the low 160 bits of the word at `addr` into `out` */
@external("vm", "balance") export declare function hostBalance (addr: usize, out: usize): void

/** a log entry: topic i is the word at topic0 - 32*i, data is memory [data, data+length) */
@external("vm", "log") export declare function hostLog (topicCount: i32, topic0: usize, data: usize, length: i32): void

/**
 * Runs a sub-call with `gas` forwarded and copies up to `outLength` bytes of its output to
 * `out`. Returns a CALL_* outcome; writes the gas it left (f64) at RESULT and the length of
 * the new return data (i32) at RESULT + 8.
 */
@external("vm", "call") export declare function hostCall (isStatic: i32, gas: f64, to: usize, value: usize, input: usize, inputLength: i32, out: usize, outLength: i32): i32

/** return data [offset, offset+length) of the last sub-call into memory at `dest` */
@external("vm", "returndataCopy") export declare function hostReturndataCopy (dest: usize, offset: i32, length: i32): void

/** a storage write the transaction made, handed over when its frame succeeds */
@external("vm", "storageFlush") export declare function hostStorageFlush (contractId: u32, slot: usize, value: usize): void
