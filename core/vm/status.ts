// How a frame ends. Both interpreters return these numeric codes (the AssemblyScript core
// gets them from the generated opcodes file); the receipt's `error` text comes from here.

export const Status = {
  STOP: 0,
  RETURN: 1,
  REVERT: 2,
  OUT_OF_GAS: 3,
  STACK_UNDERFLOW: 4,
  STACK_OVERFLOW: 5,
  INVALID_JUMP: 6,
  INVALID_OPCODE: 7,
  STATIC_VIOLATION: 8,
  CALL_DEPTH: 9,
  RETURNDATA_OUT_OF_BOUNDS: 10
} as const

export type StatusCode = typeof Status[keyof typeof Status]

const ERROR_TEXT: Record<number, string> = {
  [Status.REVERT]: 'REVERT',
  [Status.OUT_OF_GAS]: 'out of gas',
  [Status.STACK_UNDERFLOW]: 'stack underflow',
  [Status.STACK_OVERFLOW]: 'stack overflow',
  [Status.INVALID_JUMP]: 'invalid jump',
  [Status.INVALID_OPCODE]: 'invalid opcode',
  [Status.STATIC_VIOLATION]: 'static call violation',
  [Status.CALL_DEPTH]: 'call depth exceeded',
  [Status.RETURNDATA_OUT_OF_BOUNDS]: 'return data out of bounds'
}

export function isSuccess (status: number): boolean { return status === Status.STOP || status === Status.RETURN }

/** The receipt `error` text of a failed frame, null on success. */
export function statusError (status: number): string | null {
  if (isSuccess(status)) return null
  const text = ERROR_TEXT[status]
  if (text === undefined) throw new RangeError(`unknown VM status ${status}`)
  return text
}

/** Outcome of a CALL as the interpreters see it. */
export const CallOutcome = {
  FAILED: 0,
  SUCCEEDED: 1,
  /** the call stack is too deep: the whole transaction fails with `call depth exceeded` */
  FATAL_DEPTH: 2
} as const
