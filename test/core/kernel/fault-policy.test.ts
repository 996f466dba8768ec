// The process-wide fault policy (issue 31 item 5): which escaped errors stop the node, and that
// the rest are logged (boundedly) while it carries on. The real process is
// test/e2e/fault-policy.test.ts.
import t from 'tap'
import { EventEmitter } from 'node:events'
import pino from 'pino'
import { faultAction, installFaultPolicy } from '../../../core/kernel/fault-policy.ts'
import type { FaultKind } from '../../../core/kernel/fault-policy.ts'
import { NodeStateError } from '../../../core/kernel/errors.ts'
import { StoreUnavailable } from '../../../core/kernel/kv.ts'

const enospc = (): Error => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })

t.test('what stops the node and what does not', async (t) => {
  t.equal(faultAction('unhandledRejection', enospc()), 'carry on', 'an unawaited write refused by a full disk')
  t.equal(faultAction('unhandledRejection', new TypeError('x')), 'carry on', 'any unawaited failure: it ran apart')
  t.equal(faultAction('unhandledRejection', new NodeStateError('half applied')), 'stop')
  t.equal(faultAction('uncaughtException', new TypeError('x')), 'stop', 'thrown part-way through a callback: state unknown')
  t.equal(faultAction('uncaughtException', new StoreUnavailable('/d/chain', 'read-only', new Error('EROFS'))), 'carry on')
  t.equal(faultAction('uncaughtException', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })), 'carry on', 'one connection\'s socket')
  t.equal(faultAction('uncaughtException', new NodeStateError('x')), 'stop')
})

t.test('installed on a process: logs with context, a bounded number of lines, stops only when it must', async (t) => {
  const proc = new EventEmitter() as unknown as NodeJS.Process
  const lines: Array<Record<string, unknown>> = []
  const logger = pino({ level: 'info' }, { write: (s: string) => { lines.push(JSON.parse(s) as Record<string, unknown>) } })
  const stops: FaultKind[] = []
  const remove = installFaultPolicy({ logger, stop: (kind) => { stops.push(kind) }, logsPerMinute: 3, proc })
  for (let i = 0; i < 20; i++) proc.emit('unhandledRejection', enospc(), Promise.resolve())
  t.same(stops, [], 'a full disk under unawaited writes does not stop the node')
  t.equal(lines.length, 3, 'twenty of one error: three lines this minute')
  t.match(lines[0], { level: 50, kind: 'unhandledRejection', fault: 'disk full', err: { message: 'ENOSPC: no space left on device, write' }, msg: /nothing of it was written, the node carries on/ })

  proc.emit('uncaughtException', new TypeError('broken invariant'))
  t.same(stops, ['uncaughtException'])
  t.match(lines.at(-1), { level: 60, kind: 'uncaughtException', err: { message: 'broken invariant' }, msg: /stopping cleanly/ })
  remove()
  t.equal(proc.listenerCount('unhandledRejection') + proc.listenerCount('uncaughtException'), 0, 'removed')
})
