// A REVERT payload as the playground shows it: the compiler's `require(cond, "reason")` puts
// the reason's UTF-8 bytes there. Empty payload: no reason. Bytes that are not UTF-8 text are
// shown as 0x-prefixed hex so nothing is lost.
import { bytesToHex } from './words.ts'

const utf8 = new TextDecoder('utf-8', { fatal: true })

export function decodeRevertReason (payload: Uint8Array): string | null {
  if (payload.length === 0) return null
  try {
    return utf8.decode(payload)
  } catch {
    return '0x' + bytesToHex(payload)
  }
}
