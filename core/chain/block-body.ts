// How a block body is stored: JSON with the transactions last, plus the byte span of every
// transaction in it, so a lookup by transaction id parses one transaction instead of the whole
// block (a block of 20 ML-DSA-87 transactions is ~200 KB of JSON; a transaction is ~10 KB).
// This is what Bitcoin Core's txindex does with its file positions.
import type { Block, Transaction } from './types.ts'

/** [start, end) byte offsets of each transaction in the stored body, in block order */
export type TxSpans = Array<[number, number]>

export function encodeBlockBody (block: Block): { body: Buffer; spans: TxSpans } {
  const { transactions, ...header } = block
  const head = JSON.stringify(header)
  const parts: string[] = [head.length > 2 ? `${head.slice(0, -1)},"transactions":[` : '{"transactions":[']
  let offset = Buffer.byteLength(parts[0]!)
  const spans: TxSpans = []
  transactions.forEach((tx, i) => {
    if (i > 0) { parts.push(','); offset += 1 }
    const text = JSON.stringify(tx)
    const bytes = Buffer.byteLength(text)
    spans.push([offset, offset + bytes])
    parts.push(text)
    offset += bytes
  })
  parts.push(']}')
  return { body: Buffer.from(parts.join(''), 'utf8'), spans }
}

/** The transaction at `span` of a stored body; undefined when the span does not hold one. */
export function transactionAt (body: Uint8Array, span: [number, number] | undefined): Transaction | undefined {
  if (span === undefined || span[1] > body.length) return undefined
  const text = Buffer.from(body.buffer, body.byteOffset + span[0], span[1] - span[0]).toString('utf8')
  try {
    return JSON.parse(text) as Transaction
  } catch {
    return undefined
  }
}
