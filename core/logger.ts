// pino root logger; plugins get `logger.child({ module })` from the kernel.
import { pino } from 'pino'
import type { Logger, LevelWithSilent } from 'pino'

export function createLogger (level: LevelWithSilent, destination?: NodeJS.WritableStream): Logger {
  const pretty = destination === undefined && process.stdout.isTTY && process.env.LEDGER_LOG_JSON === undefined
  if (pretty) {
    return pino({ level, transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } })
  }
  return destination === undefined ? pino({ level }) : pino({ level }, destination as pino.DestinationStream)
}
