// XOR mixing (SPEC 4.6): the output is uniformly random if at least one input is, and
// independent of the others. Inputs must have one length: a shorter input would leave a tail
// that only the other sources protect.

/** target ^= src, in place; lengths must match. */
export function xorInto (target: Uint8Array, src: Uint8Array): void {
  if (target.length !== src.length) throw new RangeError(`cannot XOR ${src.length} bytes into ${target.length}`)
  for (let i = 0; i < target.length; i++) target[i] = (target[i] as number) ^ (src[i] as number)
}

/** XOR of every input, as a new buffer. */
export function xorMix (inputs: readonly Uint8Array[]): Uint8Array {
  const first = inputs[0]
  if (first === undefined) throw new RangeError('nothing to mix')
  const out = new Uint8Array(first)
  for (const input of inputs.slice(1)) xorInto(out, input)
  return out
}
