// pino root logger; plugins get `logger.child({ module })` from the kernel.
import { pino } from 'pino'
import type { Logger, LevelWithSilent } from 'pino'

export type LogFormat = 'json' | 'pretty'

/** JSON when stdout is not a terminal (a pipe, a file, journald) or LEDGER_LOG_JSON is set */
export function defaultLogFormat (): LogFormat {
  return process.stdout.isTTY === true && process.env.LEDGER_LOG_JSON === undefined ? 'pretty' : 'json'
}

export function createLogger (level: LevelWithSilent, destination?: NodeJS.WritableStream, format: LogFormat = defaultLogFormat()): Logger {
  if (destination === undefined && format === 'pretty') {
    // one line per entry: the fields follow the message instead of one line each
    return pino({ level, transport: { target: 'pino-pretty', options: { colorize: process.stdout.isTTY === true, singleLine: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } } })
  }
  return destination === undefined ? pino({ level }) : pino({ level }, destination as pino.DestinationStream)
}
