// 256-bit word helpers shared by the JS interpreter, the executor and the ABI helpers.

export const WORD_MASK = (1n << 256n) - 1n
export const ADDRESS_MASK = (1n << 160n) - 1n
export const SIGN_BIT = 1n << 255n

const HEX_BYTE = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

export function bytesToHex (bytes: Uint8Array): string {
  let out = ''
  for (let i = 0; i < bytes.length; i++) out += HEX_BYTE[bytes[i] as number]
  return out
}

/** Strict hex (optional 0x, even length); null when the text is not hex. */
export function hexToBytes (hex: string): Uint8Array | null {
  const body = hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex
  if (body.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(body)) return null
  return Uint8Array.from(Buffer.from(body, 'hex'))
}

/** Big-endian bytes (any length) as an unsigned integer. */
export function bytesToBigint (bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : BigInt('0x' + bytesToHex(bytes))
}

/** The word as 32 big-endian bytes. */
export function wordToBytes (value: bigint): Uint8Array {
  const out = new Uint8Array(32)
  let v = value & WORD_MASK
  for (let i = 31; i >= 0 && v !== 0n; i--) {
    out[i] = Number(v & 0xffn)
    v >>= 8n
  }
  return out
}

export const wordToHex = (value: bigint): string => (value & WORD_MASK).toString(16).padStart(64, '0')

/** A VM address (40 hex) as the word contracts see. */
export function addressToWord (addr: string): bigint { return BigInt('0x' + addr) }

/** The low 160 bits of a word as a VM address. */
export function wordToAddress (word: bigint): string { return (word & ADDRESS_MASK).toString(16).padStart(40, '0') }

export const VM_ADDRESS_RE = /^[0-9a-f]{40}$/
