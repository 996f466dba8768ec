// Source to deployable bytecode and ABI: parse, check, generate.
import { parse } from './parser.ts'
import { check } from './checker.ts'
import { generate } from './codegen.ts'
import { buildAbi } from './abi.ts'
import type { ContractAbi } from './abi.ts'
import { CompileError } from './errors.ts'
import { checkSourceSize, CompileDeadline } from './limits.ts'
import { LIMITS } from '../vm/params.ts'
import { bytesToHex } from '../vm/words.ts'

export interface CompileResult {
  /** init code + runtime code: what a deploy transaction carries */
  bytecode: Uint8Array
  bytecode_hex: string
  bytecode_size: number
  /** the code the contract holds once deployed */
  runtime: Uint8Array
  abi: ContractAbi
}

/** Compiles one contract; throws CompileError ("line:column: reason") when it does not compile,
 *  and for nothing else: whatever a source does to the compiler is the source's failure. */
export function compile (source: string): CompileResult {
  try {
    return compileChecked(source)
  } catch (err) {
    if (err instanceof CompileError) throw err
    // a compiler limit this file does not foresee (a RangeError from a deep recursion, ...)
    throw new CompileError(`the compiler cannot handle this source: ${err instanceof Error ? err.message : String(err)}`, { line: 1, column: 1 })
  }
}

function compileChecked (source: string): CompileResult {
  if (typeof source !== 'string') throw new CompileError('source must be text', { line: 1, column: 1 })
  checkSourceSize(source)
  const deadline = new CompileDeadline()
  const checked = check(parse(source, deadline), deadline)
  const { deployCode, runtimeCode } = generate(checked, deadline)
  if (runtimeCode.length > LIMITS.codeBytes) {
    throw new CompileError(`the contract's code is ${runtimeCode.length} bytes; at most ${LIMITS.codeBytes}`, checked.contract.pos)
  }
  if (deployCode.length > LIMITS.initCodeBytes) {
    throw new CompileError(`the deploy code is ${deployCode.length} bytes; at most ${LIMITS.initCodeBytes}`, checked.contract.pos)
  }
  return {
    bytecode: deployCode,
    bytecode_hex: bytesToHex(deployCode),
    bytecode_size: deployCode.length,
    runtime: runtimeCode,
    abi: buildAbi(checked)
  }
}
