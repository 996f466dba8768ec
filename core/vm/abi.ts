// Calldata for contract calls: one selector byte, then one 32-byte big-endian word per
// argument (SPEC 2.6). Arguments come from users (the playground), so every value is checked
// against its parameter's type and refused with an EncodeError saying which and why.
import { bytesToHex, hexToBytes, wordToBytes } from './words.ts'

export interface AbiParam { name: string; type: string }

export class EncodeError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'EncodeError'
  }
}

const MAX_UINT = (1n << 256n) - 1n
const utf8 = new TextEncoder()

function encodeUint (value: unknown, what: string): bigint {
  let n: bigint
  if (typeof value === 'bigint') n = value
  else if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new EncodeError(`${what}: ${value} is not a whole number in the safe range (pass large values as decimal strings)`)
    n = BigInt(value)
  } else if (typeof value === 'string' && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(value.trim())) n = BigInt(value.trim())
  else throw new EncodeError(`${what}: expected an unsigned integer (number, decimal or 0x-hex string), got ${JSON.stringify(value)}`)
  if (n < 0n || n > MAX_UINT) throw new EncodeError(`${what}: ${n} is outside 0..2^256-1`)
  return n
}

function encodeBool (value: unknown, what: string): bigint {
  if (value === true || value === 'true' || value === 1 || value === '1') return 1n
  if (value === false || value === 'false' || value === 0 || value === '0') return 0n
  throw new EncodeError(`${what}: expected true or false, got ${JSON.stringify(value)}`)
}

function encodeAddress (value: unknown, what: string): bigint {
  if (typeof value === 'string') {
    const body = value.trim().replace(/^0x/i, '')
    if (/^[0-9a-fA-F]{40}$/.test(body)) return BigInt('0x' + body)
  }
  throw new EncodeError(`${what}: expected a 40-hex VM address, got ${JSON.stringify(value)}`)
}

/** bytes32: 0x-hex of up to 32 bytes, or text of up to 32 UTF-8 bytes; left-aligned, zero-padded. */
function encodeBytes32 (value: unknown, what: string): Uint8Array {
  if (typeof value !== 'string') throw new EncodeError(`${what}: expected 0x-hex or text of at most 32 bytes, got ${JSON.stringify(value)}`)
  let bytes: Uint8Array | null
  if (/^0x/i.test(value)) {
    bytes = hexToBytes(value)
    if (bytes === null) throw new EncodeError(`${what}: ${JSON.stringify(value)} is not even-length hex`)
  } else {
    bytes = utf8.encode(value)
  }
  if (bytes.length > 32) throw new EncodeError(`${what}: ${bytes.length} bytes do not fit in bytes32`)
  const word = new Uint8Array(32)
  word.set(bytes)
  return word
}

export function encodeArgument (type: string, value: unknown, what: string): Uint8Array {
  switch (type) {
    case 'uint': return wordToBytes(encodeUint(value, what))
    case 'bool': return wordToBytes(encodeBool(value, what))
    case 'address': return wordToBytes(encodeAddress(value, what))
    case 'bytes32': return encodeBytes32(value, what)
    default: throw new EncodeError(`${what}: type ${JSON.stringify(type)} cannot be passed as an argument (uint, bool, address, bytes32)`)
  }
}

/** selector ‖ one 32-byte word per argument, in declaration order. */
export function encodeCall (selector: number, args: readonly unknown[], params: readonly AbiParam[]): Uint8Array {
  if (!Number.isInteger(selector) || selector < 1 || selector > 255) throw new EncodeError(`selector must be an integer 1..255, got ${JSON.stringify(selector)}`)
  if (!Array.isArray(args) || !Array.isArray(params)) throw new EncodeError('args and params must be lists')
  if (args.length !== params.length) throw new EncodeError(`expected ${params.length} argument${params.length === 1 ? '' : 's'}, got ${args.length}`)
  const out = new Uint8Array(1 + 32 * args.length)
  out[0] = selector
  params.forEach((param, i) => {
    const name = typeof param?.name === 'string' && param.name !== '' ? param.name : `#${i + 1}`
    out.set(encodeArgument(String(param?.type), args[i], `argument ${name}`), 1 + 32 * i)
  })
  return out
}

export type DecodedValue = string | boolean | null

/**
 * Return data read as the function's return type: uint as a decimal string, bool, address
 * as 40 hex, bytes32 as 0x-hex; null when the function returns nothing.
 */
export function decodeReturn (data: Uint8Array | string, type: string | null): DecodedValue {
  if (type === null) return null
  const bytes = typeof data === 'string' ? hexToBytes(data) : data
  if (bytes === null || bytes.length !== 32) throw new EncodeError(`return data of a ${type} must be one 32-byte word, got ${typeof data === 'string' ? data.length / 2 : data.length} bytes`)
  const word = BigInt('0x' + bytesToHex(bytes))
  switch (type) {
    case 'uint': return word.toString()
    case 'bool': return word !== 0n
    case 'address': return bytesToHex(bytes.subarray(12))
    case 'bytes32': return '0x' + bytesToHex(bytes)
    default: throw new EncodeError(`cannot decode a return of type ${JSON.stringify(type)}`)
  }
}
