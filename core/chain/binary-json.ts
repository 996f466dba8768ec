// Canonical binary JSON: one byte string for each JSON value, used for merkle leaves, stored
// transactions and the p2p wire (docs/chain.md, "Binary encoding"). It is generic — any key an
// object carries survives, so new envelope or data fields need no codec change — and compact
// where chain data is big: a lower-case hex string (signatures, public keys, hashes,
// addresses) travels as its bytes. Decoding is strict, because it reads peers' bytes: every
// length is bounded by the bytes left, nesting is bounded, nothing may trail, and only the one
// canonical form of a value is accepted (minimal lengths, sorted unique keys, each string in
// the only kind that fits it), so a value has exactly one encoding and a decoded value
// re-encodes to the bytes it came from.
//
//   value  = 0x01 false | 0x02 true | 0x03 null
//          | 0x04 f64 (big-endian; finite, never -0)
//          | 0x05 len utf8           (a string that is not hex text, below)
//          | 0x06 len bytes          (hex text: non-empty, even length, only 0-9 a-f)
//          | 0x07 count value*       (array)
//          | 0x08 count (len utf8 value)*   (object; keys strictly ascending by UTF-16 code
//                                            units, as RFC 8785 sorts them)
//   len, count = unsigned LEB128, minimal, at most 2^32 - 1

import { isUtf8 } from 'node:buffer'

export class BinaryJsonError extends Error { override name = 'BinaryJsonError' }

/** Deeper values are refused both ways; transaction data and envelopes nest 3-4 levels. */
export const MAX_DEPTH = 32

const Tag = { False: 1, True: 2, Null: 3, Number: 4, Utf8: 5, Hex: 6, Array: 7, Object: 8 } as const

/** Bytes the writer stores as they are: an already encoded value (a stored transaction). */
export class EncodedValue {
  readonly bytes: Uint8Array
  constructor (bytes: Uint8Array) { this.bytes = bytes }
}

class Writer {
  buf: Buffer
  pos = 0
  constructor (size: number) { this.buf = Buffer.allocUnsafe(size) }

  room (n: number): void {
    if (this.pos + n <= this.buf.length) return
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n))
    this.buf.copy(next, 0, 0, this.pos)
    this.buf = next
  }

  byte (b: number): void { this.room(1); this.buf[this.pos++] = b }

  varint (n: number): void {
    this.room(5)
    while (n >= 0x80) { this.buf[this.pos++] = (n & 0x7f) | 0x80; n = Math.floor(n / 128) }
    this.buf[this.pos++] = n
  }

  utf8 (s: string): void {
    if (!s.isWellFormed()) throw new BinaryJsonError('string holds a lone surrogate')
    const n = Buffer.byteLength(s, 'utf8')
    this.varint(n)
    this.room(n)
    this.pos += this.buf.write(s, this.pos, n, 'utf8')
  }

  raw (bytes: Uint8Array): void { this.room(bytes.length); this.buf.set(bytes, this.pos); this.pos += bytes.length }

  value (v: unknown, depth: number): void {
    if (depth > MAX_DEPTH) throw new BinaryJsonError(`nested deeper than ${MAX_DEPTH}`)
    switch (typeof v) {
      case 'boolean': this.byte(v ? Tag.True : Tag.False); return
      case 'number':
        if (!Number.isFinite(v)) throw new BinaryJsonError('number is not finite')
        this.byte(Tag.Number)
        this.room(8)
        this.buf.writeDoubleBE(v === 0 ? 0 : v, this.pos) // -0 is 0 in JSON
        this.pos += 8
        return
      case 'string':
        if (v.length > 0 && v.length % 2 === 0) {
          // Written as hex first: Buffer's hex parser stops at the first non-hex pair, so all
          // n bytes written means only 0-9 a-f A-F, and lower case leaves exactly hex text.
          const start = this.pos
          const n = v.length / 2
          this.byte(Tag.Hex)
          this.varint(n)
          this.room(n)
          if (this.buf.write(v, this.pos, n, 'hex') === n && v.toLowerCase() === v) { this.pos += n; return }
          this.pos = start
        }
        this.byte(Tag.Utf8)
        this.utf8(v)
        return
      case 'object':
        if (v === null) { this.byte(Tag.Null); return }
        if (v instanceof EncodedValue) { this.raw(v.bytes); return }
        if (Array.isArray(v)) {
          this.byte(Tag.Array)
          this.varint(v.length)
          for (const item of v) this.value(item === undefined ? null : item, depth + 1)
          return
        }
        {
          const obj = v as Record<string, unknown>
          const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort() // JSON drops undefined
          this.byte(Tag.Object)
          this.varint(keys.length)
          for (const k of keys) { this.utf8(k); this.value(obj[k], depth + 1) }
        }
        return
      default: throw new BinaryJsonError(`a ${typeof v} is not a JSON value`)
    }
  }
}

// One scratch buffer for every encoding (encoding is synchronous), so a value is written
// without regrowing and copied out once at its exact size; a rare huge one does not stay.
const SCRATCH_BYTES = 64 * 1024
let scratch: Writer | null = null

/** The canonical bytes of a JSON value, after an optional prefix (a format byte). */
export function encodeBinaryJson (value: unknown, prefix?: number): Buffer {
  const w = scratch ?? new Writer(SCRATCH_BYTES)
  scratch = null // an encoding that throws leaves nothing half-written behind for the next
  w.pos = 0
  if (prefix !== undefined) w.byte(prefix)
  w.value(value, 0)
  const out = Buffer.allocUnsafe(w.pos)
  w.buf.copy(out, 0, 0, w.pos)
  if (w.buf.length <= 16 * SCRATCH_BYTES) scratch = w
  return out
}

const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

class Reader {
  readonly buf: Buffer
  pos: number
  constructor (buf: Buffer, pos: number) { this.buf = buf; this.pos = pos }

  fail (why: string): never { throw new BinaryJsonError(`${why} at byte ${this.pos}`) }

  byte (): number {
    if (this.pos >= this.buf.length) this.fail('truncated')
    return this.buf[this.pos++] as number
  }

  varint (): number {
    let n = 0
    for (let i = 0, scale = 1; i < 5; i++, scale *= 128) {
      const b = this.byte()
      n += (b & 0x7f) * scale
      if ((b & 0x80) === 0) {
        if (b === 0 && i > 0) this.fail('length not in its shortest form')
        if (n > 0xffffffff) this.fail('length over 2^32 - 1')
        return n
      }
    }
    return this.fail('length longer than 5 bytes')
  }

  take (n: number): number {
    if (n > this.buf.length - this.pos) this.fail(`length ${n} runs past the end`)
    const start = this.pos
    this.pos += n
    return start
  }

  /** a length-prefixed byte string: where it starts; it ends at this.pos */
  span (): number {
    return this.take(this.varint())
  }

  /** the UTF-8 text in buf[start, this.pos) */
  text (start: number): string {
    // ASCII (keys, addresses, most memos) needs no validation: latin1 reads it as it is
    let ascii = true
    for (let i = start; i < this.pos; i++) if ((this.buf[i] as number) >= 0x80) { ascii = false; break }
    if (ascii) return this.buf.toString('latin1', start, this.pos)
    try {
      return utf8Decoder.decode(this.buf.subarray(start, this.pos))
    } catch {
      return this.fail('invalid UTF-8')
    }
  }

  /** an object key */
  utf8 (): string { return this.text(this.span()) }

  /** a string value (tag 0x05): where its bytes start, refused if they are hex text */
  stringSpan (): number {
    const start = this.span()
    if (isHexText(this.buf, start, this.pos)) this.fail('hex text sent as UTF-8')
    return start
  }

  number (): number {
    const v = this.buf.readDoubleBE(this.take(8))
    if (!Number.isFinite(v) || Object.is(v, -0)) this.fail('number is not finite or is -0')
    return v
  }

  /** a non-empty hex value (tag 0x06): where its bytes start */
  hexSpan (): number {
    const n = this.varint()
    if (n === 0) this.fail('empty hex')
    return this.take(n)
  }

  arrayCount (): number {
    const count = this.varint()
    if (count > this.buf.length - this.pos) this.fail(`array of ${count} items runs past the end`)
    return count
  }

  /** an object's members, keys checked in order; `member` reads (or skips) each one's value */
  members (member: (key: string) => void): void {
    const count = this.varint()
    if (count > (this.buf.length - this.pos) / 2) this.fail(`object of ${count} keys runs past the end`)
    let last: string | undefined
    for (let i = 0; i < count; i++) {
      const key = this.utf8()
      if (last !== undefined && !(last < key)) this.fail('object keys not strictly ascending')
      last = key
      member(key)
    }
  }

  value (depth: number): unknown {
    if (depth > MAX_DEPTH) this.fail(`nested deeper than ${MAX_DEPTH}`)
    const tag = this.byte()
    switch (tag) {
      case Tag.False: return false
      case Tag.True: return true
      case Tag.Null: return null
      case Tag.Number: return this.number()
      case Tag.Utf8: return this.text(this.stringSpan())
      case Tag.Hex: return this.buf.toString('hex', this.hexSpan(), this.pos)
      case Tag.Array: {
        const out: unknown[] = []
        for (let n = this.arrayCount(); n > 0; n--) out.push(this.value(depth + 1))
        return out
      }
      case Tag.Object: {
        const out: Record<string, unknown> = {}
        // defineProperty: a key named __proto__ is data, as JSON.parse makes it
        this.members((key) => {
          const v = this.value(depth + 1)
          if (key === '__proto__') Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true })
          else out[key] = v
        })
        return out
      }
      default: return this.fail(`unknown tag ${tag}`)
    }
  }

  /**
   * Past one value, refusing exactly what value() refuses, without making it: no strings, no
   * objects (object keys excepted, for their order). For a member of a large value that is not
   * wanted yet: a block's transactions while only its envelope is read.
   */
  skip (depth: number): void {
    if (depth > MAX_DEPTH) this.fail(`nested deeper than ${MAX_DEPTH}`)
    const tag = this.byte()
    switch (tag) {
      case Tag.False: case Tag.True: case Tag.Null: return
      case Tag.Number: this.number(); return
      case Tag.Utf8: {
        const start = this.stringSpan()
        if (!isUtf8(this.buf.subarray(start, this.pos))) this.fail('invalid UTF-8')
        return
      }
      case Tag.Hex: this.hexSpan(); return
      case Tag.Array: for (let n = this.arrayCount(); n > 0; n--) this.skip(depth + 1); return
      case Tag.Object: this.members(() => { this.skip(depth + 1) }); return
      default: this.fail(`unknown tag ${tag}`)
    }
  }
}

/**
 * Whether the UTF-8 text in buf[start, end) is hex text (non-empty, even length, only 0-9 a-f):
 * hex text is ASCII, so its bytes are its characters. A loop, not a regex over the decoded
 * string: a 9 KB signature is checked without making it a string.
 */
function isHexText (buf: Uint8Array, start: number, end: number): boolean {
  if (end === start || (end - start) % 2 !== 0) return false
  for (let i = start; i < end; i++) {
    const c = buf[i] as number
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66))) return false
  }
  return true
}

/** Decodes one canonical value filling `bytes` from `offset`; trailing bytes are an error. */
export function decodeBinaryJson (bytes: Uint8Array, offset = 0): unknown {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const r = new Reader(buf, offset)
  const v = r.value(0)
  if (r.pos !== buf.length) r.fail('trailing bytes')
  return v
}

/**
 * Member `key` of the object encoded at `offset` of `bytes`, decoded, after checking the whole
 * value exactly as decodeBinaryJson does (it throws where decodeBinaryJson throws) without
 * making the other members: undefined when the value is not an object or has no such member.
 * A peer's block can be checked and its envelope read while its transactions stay bytes.
 */
export function decodeBinaryJsonMember (bytes: Uint8Array, offset: number, key: string): unknown {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const r = new Reader(buf, offset)
  let found: unknown
  if (buf[offset] !== Tag.Object) {
    r.skip(0)
  } else {
    r.pos++
    r.members((k) => { if (k === key) found = r.value(1); else r.skip(1) })
  }
  if (r.pos !== buf.length) r.fail('trailing bytes')
  return found
}

/** A cursor over our own encodings, not a peer's: lengths are trusted, nothing is checked. */
class TrustedCursor {
  readonly bytes: Uint8Array
  pos: number

  constructor (bytes: Uint8Array, pos: number) {
    this.bytes = bytes
    this.pos = pos
  }

  varint (): number {
    let n = 0
    for (let scale = 1; ; scale *= 128) {
      const b = this.bytes[this.pos++] as number
      n += (b & 0x7f) * scale
      if ((b & 0x80) === 0) return n
    }
  }

  /** past a length-prefixed byte string (a key, or a string's bytes) */
  skipBytes (): void { const n = this.varint(); this.pos += n }

  /** past the value whose tag byte is at the cursor */
  skipValue (): void {
    const tag = this.bytes[this.pos++]
    if (tag === Tag.Number) this.pos += 8
    else if (tag === Tag.Utf8 || tag === Tag.Hex) this.skipBytes()
    else if (tag === Tag.Array) { for (let n = this.varint(); n > 0; n--) this.skipValue() } else if (tag === Tag.Object) { for (let n = this.varint(); n > 0; n--) { this.skipBytes(); this.skipValue() } }
  }
}

/**
 * Where the value of member `key` of the object encoded at `offset` of `bytes` starts (its tag
 * byte), or undefined when the value there is not an object or has no such member. For our own
 * encodings, not a peer's: lengths are trusted.
 */
function memberAt (bytes: Uint8Array, offset: number, key: string): number | undefined {
  const c = new TrustedCursor(bytes, offset)
  if (bytes[c.pos++] !== Tag.Object) return undefined
  const want = Buffer.from(key, 'utf8')
  for (let n = c.varint(); n > 0; n--) {
    const len = c.varint()
    const match = len === want.length && Buffer.compare(want, bytes.subarray(c.pos, c.pos + len)) === 0
    c.pos += len
    if (match) return c.pos
    c.skipValue()
  }
  return undefined
}

/**
 * The tag of member `key` of the object encoded at `offset` of `bytes` (our own encoding), or
 * undefined when there is no such member. Lets a caller holding a value's encoding learn, for
 * example, that a string member was written as hex text (tag 0x06: non-empty, even-length,
 * only 0-9 a-f) without scanning the string again.
 */
export function memberTag (bytes: Uint8Array, offset: number, key: string): number | undefined {
  const at = memberAt(bytes, offset, key)
  return at === undefined ? undefined : bytes[at]
}

/**
 * The bytes of member `key` of the object encoded at `offset` of `bytes` (our own encoding) when
 * it was written as hex text, as a view: a transaction's signature without decoding its 9 KB of
 * hex a second time. Undefined for a missing member or one that is not hex text.
 */
export function memberHexBytes (bytes: Uint8Array, offset: number, key: string): Uint8Array | undefined {
  const at = memberAt(bytes, offset, key)
  if (at === undefined || bytes[at] !== Tag.Hex) return undefined
  const c = new TrustedCursor(bytes, at + 1)
  const n = c.varint()
  return bytes.subarray(c.pos, c.pos + n)
}

/**
 * Where each item of the array member `key` of the object encoded at `offset` of `bytes` starts
 * and ends (`[start, end)` pairs, in order), or undefined when there is no such member or it is
 * not an array: a block's transactions as the byte strings they were encoded as. For bytes that
 * decodeBinaryJson has accepted (or our own encodings): lengths are trusted.
 */
export function arrayItemSpans (bytes: Uint8Array, offset: number, key: string): Array<[number, number]> | undefined {
  const at = memberAt(bytes, offset, key)
  if (at === undefined || bytes[at] !== Tag.Array) return undefined
  const c = new TrustedCursor(bytes, at + 1)
  const spans: Array<[number, number]> = []
  for (let n = c.varint(); n > 0; n--) {
    const start = c.pos
    c.skipValue()
    spans.push([start, c.pos])
  }
  return spans
}

/** the tag hex text is written with */
export const HEX_TAG = Tag.Hex
