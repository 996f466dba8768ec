// Contract words and logs as a person reads them, shared by the explorer and the playground
// pages: uint as decimal, bool, address as 0x + 20 bytes, anything else as hex with its text
// when it is printable UTF-8 (a revert reason, a name), and events decoded with the ABI.

/** the text a word holds (trailing zero bytes dropped), or null when it is not printable UTF-8 */
export function hexToText (hex) {
  const bytes = new Uint8Array(hex.match(/../g)?.map((b) => parseInt(b, 16)) ?? [])
  let end = bytes.length
  while (end > 0 && bytes[end - 1] === 0) end--
  if (end === 0) return null
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, end))
    return /^[\P{C}\t\n]*$/u.test(text) ? text : null
  } catch {
    return null
  }
}

/** one 32-byte word (64 hex) read as the ABI type says */
export function decodeWord (hex, type) {
  const word = BigInt(`0x${hex}`)
  if (type === 'uint') return word.toString()
  if (type === 'bool') return word === 0n ? 'false' : 'true'
  if (type === 'address') return `0x${hex.slice(24)}`
  const text = hexToText(hex)
  return text === null ? `0x${hex}` : `0x${hex} ("${text}")`
}

/** Incremented(by=5, total=5) with the ABI; the raw topics and data without */
export function decodeLog (log, abi) {
  const event = abi?.events?.find((e) => e.topic === log.topics[0])
  if (event === undefined) return `topics ${log.topics.join(', ')}${log.data === '' ? '' : ` data ${log.data}`}`
  let topic = 1
  let word = 0
  const args = event.params.map((p) => {
    const hex = p.indexed ? log.topics[topic++] : log.data.slice(64 * word, 64 * ++word)
    return `${p.name}=${hex === undefined || hex.length !== 64 ? '?' : decodeWord(hex, p.type)}`
  })
  return `${event.name}(${args.join(', ')})`
}
