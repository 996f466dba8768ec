// A logger that keeps what it logs, for tests that wait on a node's own record of an event
// (a decision with no other outward trace) before asserting its outcome.
import { Writable } from 'node:stream'
import { pino } from 'pino'
import type { Logger } from 'pino'

export interface LogRecord { level: number, msg: string, [field: string]: unknown }

export function recordingLogger (level = 'info'): { logger: Logger, records: LogRecord[] } {
  const records: LogRecord[] = []
  const sink = new Writable({
    write (chunk: Buffer, _encoding, done) {
      records.push(JSON.parse(chunk.toString()) as LogRecord)
      done()
    }
  })
  return { logger: pino({ level }, sink), records }
}
