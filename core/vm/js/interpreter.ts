// The JS twin of the AssemblyScript interpreter: words are BigInt, the stack a preallocated
// array, the loop one switch over the opcode byte. Stack arity and base gas come from the
// shared opcode table and are checked before every instruction, in the same order as the
// WASM core: defined opcode, stack underflow, stack overflow, base gas, then the handler.
import { BASE_GAS, IS_DEFINED, STACK_IN, STACK_OUT } from '../opcodes.ts'
import { GAS, LIMITS } from '../params.ts'
import { CallOutcome, Status } from '../status.ts'
import { jumpDestinations } from '../code.ts'
import { SIGN_BIT, WORD_MASK, addressToWord, bytesToBigint, wordToAddress } from '../words.ts'
// the JS twin hashes in JS, as the WASM interpreter hashes inside WASM: SHA3 belongs to the VM core
import { jsSha3Core } from '../../crypto/sha3-js.ts'
import type { FrameHost, FrameInput, FrameOutput, Interpreter } from '../interpreter.ts'
import { FrameMemory } from './memory.ts'

const MODULUS = 1n << 256n
const EMPTY = new Uint8Array(0)
const STACK_LIMIT = LIMITS.stack
const RETAIN = LIMITS.callGasRetainDivisor
const toSigned = (x: bigint): bigint => (x >= SIGN_BIT ? x - MODULUS : x)
const fromSigned = (x: bigint): bigint => (x < 0n ? x + MODULUS : x)

const destCache = new WeakMap<Uint8Array, Uint8Array>()
function destinationsOf (code: Uint8Array): Uint8Array {
  let dests = destCache.get(code)
  if (dests === undefined) {
    dests = jumpDestinations(code)
    destCache.set(code, dests)
  }
  return dests
}

/** Bytes [offset, offset+length) of `source`, zero-filled past its end, into memory. */
function copyPadded (mem: Uint8Array, dest: number, source: Uint8Array, offset: bigint, length: number): void {
  const start = offset >= BigInt(source.length) ? source.length : Number(offset)
  const available = Math.min(length, source.length - start)
  if (available > 0) mem.set(source.subarray(start, start + available), dest)
  mem.fill(0, dest + Math.max(available, 0), dest + length)
}

function readWord (mem: Uint8Array, offset: number): bigint {
  let hex = ''
  for (let i = 0; i < 32; i++) hex += (mem[offset + i] as number).toString(16).padStart(2, '0')
  return BigInt('0x' + hex)
}

function writeWord (mem: Uint8Array, offset: number, value: bigint): void {
  let v = value
  for (let i = 31; i >= 0; i--) {
    mem[offset + i] = Number(v & 0xffn)
    v >>= 8n
  }
}

function expBytes (exponent: bigint): number {
  return exponent === 0n ? 0 : (exponent.toString(16).length + 1) >> 1
}

function modPow (base: bigint, exponent: bigint): bigint {
  let result = 1n
  let b = base
  let e = exponent
  while (e > 0n) {
    if ((e & 1n) === 1n) result = (result * b) & WORD_MASK
    e >>= 1n
    if (e > 0n) b = (b * b) & WORD_MASK
  }
  return result
}

function runFrame (frame: FrameInput, host: FrameHost): FrameOutput {
  const code = frame.code
  const codeLength = code.length
  const dests = destinationsOf(code)
  const calldata = frame.calldata
  const stack: bigint[] = new Array<bigint>(STACK_LIMIT).fill(0n)
  const mem = new FrameMemory()
  const state = host.state
  let sp = 0
  let pc = 0
  let gas = frame.gas
  let returnData: Uint8Array = EMPTY
  let output: Uint8Array = EMPTY
  let status: number = Status.STOP

  loop: for (;;) {
    const opcode = pc < codeLength ? code[pc] as number : 0
    if (IS_DEFINED[opcode] === 0) { status = Status.INVALID_OPCODE; break }
    const inputs = STACK_IN[opcode] as number
    if (sp < inputs) { status = Status.STACK_UNDERFLOW; break }
    if (sp - inputs + (STACK_OUT[opcode] as number) > STACK_LIMIT) { status = Status.STACK_OVERFLOW; break }
    gas -= BASE_GAS[opcode] as number
    if (gas < 0) { status = Status.OUT_OF_GAS; break }

    switch (opcode) {
      case 0x00: status = Status.STOP; break loop
      case 0x01: { const a = stack[--sp] as bigint; stack[sp - 1] = (a + (stack[sp - 1] as bigint)) & WORD_MASK; break }
      case 0x02: { const a = stack[--sp] as bigint; stack[sp - 1] = (a * (stack[sp - 1] as bigint)) & WORD_MASK; break }
      case 0x03: { const a = stack[--sp] as bigint; stack[sp - 1] = (a - (stack[sp - 1] as bigint)) & WORD_MASK; break }
      case 0x04: { const a = stack[--sp] as bigint; const b = stack[sp - 1] as bigint; stack[sp - 1] = b === 0n ? 0n : a / b; break }
      case 0x05: {
        const a = toSigned(stack[--sp] as bigint); const b = toSigned(stack[sp - 1] as bigint)
        stack[sp - 1] = b === 0n ? 0n : fromSigned(a / b) & WORD_MASK
        break
      }
      case 0x06: { const a = stack[--sp] as bigint; const b = stack[sp - 1] as bigint; stack[sp - 1] = b === 0n ? 0n : a % b; break }
      case 0x07: {
        const a = toSigned(stack[--sp] as bigint); const b = toSigned(stack[sp - 1] as bigint)
        stack[sp - 1] = b === 0n ? 0n : fromSigned(a % b)
        break
      }
      case 0x08: {
        const a = stack[--sp] as bigint; const b = stack[--sp] as bigint; const n = stack[sp - 1] as bigint
        stack[sp - 1] = n === 0n ? 0n : (a + b) % n
        break
      }
      case 0x09: {
        const a = stack[--sp] as bigint; const b = stack[--sp] as bigint; const n = stack[sp - 1] as bigint
        stack[sp - 1] = n === 0n ? 0n : (a * b) % n
        break
      }
      case 0x0a: {
        const base = stack[--sp] as bigint; const exponent = stack[sp - 1] as bigint
        gas -= GAS.expByte * expBytes(exponent)
        if (gas < 0) { status = Status.OUT_OF_GAS; break loop }
        stack[sp - 1] = modPow(base, exponent)
        break
      }
      case 0x0b: {
        const b = stack[--sp] as bigint; const x = stack[sp - 1] as bigint
        if (b < 31n) {
          const bit = b * 8n + 7n
          const mask = (1n << bit) - 1n
          stack[sp - 1] = ((x >> bit) & 1n) === 1n ? (x | ~mask) & WORD_MASK : x & mask
        }
        break
      }
      case 0x10: { const a = stack[--sp] as bigint; stack[sp - 1] = a < (stack[sp - 1] as bigint) ? 1n : 0n; break }
      case 0x11: { const a = stack[--sp] as bigint; stack[sp - 1] = a > (stack[sp - 1] as bigint) ? 1n : 0n; break }
      case 0x12: { const a = toSigned(stack[--sp] as bigint); stack[sp - 1] = a < toSigned(stack[sp - 1] as bigint) ? 1n : 0n; break }
      case 0x13: { const a = toSigned(stack[--sp] as bigint); stack[sp - 1] = a > toSigned(stack[sp - 1] as bigint) ? 1n : 0n; break }
      case 0x14: { const a = stack[--sp] as bigint; stack[sp - 1] = a === stack[sp - 1] ? 1n : 0n; break }
      case 0x15: stack[sp - 1] = stack[sp - 1] === 0n ? 1n : 0n; break
      case 0x16: { const a = stack[--sp] as bigint; stack[sp - 1] = a & (stack[sp - 1] as bigint); break }
      case 0x17: { const a = stack[--sp] as bigint; stack[sp - 1] = a | (stack[sp - 1] as bigint); break }
      case 0x18: { const a = stack[--sp] as bigint; stack[sp - 1] = a ^ (stack[sp - 1] as bigint); break }
      case 0x19: stack[sp - 1] = (stack[sp - 1] as bigint) ^ WORD_MASK; break
      case 0x1a: {
        const i = stack[--sp] as bigint; const x = stack[sp - 1] as bigint
        stack[sp - 1] = i >= 32n ? 0n : (x >> (8n * (31n - i))) & 0xffn
        break
      }
      case 0x1b: {
        const shift = stack[--sp] as bigint; const x = stack[sp - 1] as bigint
        stack[sp - 1] = shift >= 256n ? 0n : (x << shift) & WORD_MASK
        break
      }
      case 0x1c: {
        const shift = stack[--sp] as bigint; const x = stack[sp - 1] as bigint
        stack[sp - 1] = shift >= 256n ? 0n : x >> shift
        break
      }
      case 0x1d: {
        const shift = stack[--sp] as bigint; const x = toSigned(stack[sp - 1] as bigint)
        stack[sp - 1] = fromSigned(x >> (shift >= 256n ? 256n : shift))
        break
      }
      case 0x20: {
        const offset = stack[--sp] as bigint; const length = stack[sp - 1] as bigint
        gas -= mem.expand(offset, length)
        if (gas < 0) { status = Status.OUT_OF_GAS; break loop }
        const len = Number(length)
        gas -= GAS.sha3Word * ((len + 31) >>> 5)
        if (gas < 0) { status = Status.OUT_OF_GAS; break loop }
        const start = len === 0 ? 0 : Number(offset)
        stack[sp - 1] = bytesToBigint(jsSha3Core.sha3_256(mem.bytes.subarray(start, start + len)))
        break
      }
      case 0x30: stack[sp++] = addressToWord(frame.address); break
      case 0x31: stack[sp - 1] = state.getBalance(wordToAddress(stack[sp - 1] as bigint)); break
      case 0x32: stack[sp++] = addressToWord(frame.caller); break
      case 0x33: stack[sp++] = frame.value; break
      case 0x34: {
        const offset = stack[sp - 1] as bigint
        if (offset >= BigInt(calldata.length)) { stack[sp - 1] = 0n; break }
        const start = Number(offset)
        const word = new Uint8Array(32)
        word.set(calldata.subarray(start, start + 32))
        stack[sp - 1] = bytesToBigint(word)
        break
      }
      case 0x35: stack[sp++] = BigInt(calldata.length); break
      case 0x36: case 0x38: case 0x3a: {
        const dest = stack[--sp] as bigint; const offset = stack[--sp] as bigint; const length = stack[--sp] as bigint
        gas -= mem.expand(dest, length)
        if (gas < 0) { status = Status.OUT_OF_GAS; break loop }
        const len = Number(length)
        gas -= GAS.copyWord * ((len + 31) >>> 5)
        if (gas < 0) { status = Status.OUT_OF_GAS; break loop }
        if (opcode === 0x3a && offset + length > BigInt(returnData.length)) { status = Status.RETURNDATA_OUT_OF_BOUNDS; break loop }
        if (len > 0) copyPadded(mem.bytes, Number(dest), opcode === 0x36 ? calldata : opcode === 0x38 ? code : returnData, offset, len)
        break
      }
      case 0x37: stack[sp++] = BigInt(codeLength); break
      case 0x39: stack[sp++] = BigInt(returnData.length); break
      case 0x3b: stack[sp++] = state.getBalance(frame.address); break
      case 0x40: stack[sp++] = BigInt(host.env.blockHeight); break
      case 0x41: stack[sp++] = BigInt(Math.floor(host.env.timestamp)); break
      case 0x42: stack[sp++] = addressToWord(host.env.miner); break
      case 0x50: sp--; break
      case 0x51: {
        const offset = stack[sp - 1] as bigint
        gas -= mem.expand(offset, 32n)
        if (gas < 0) { status = Status.OUT_OF_GAS; break loop }
        stack[sp - 1] = readWord(mem.bytes, Number(offset))
        break
      }
      case 0x52: {
        const offset = stack[--sp] as bigint; const value = stack[--sp] as bigint
        gas -= mem.expand(offset, 32n)
        if (gas < 0) { status = Status.OUT_OF_GAS; break loop }
        writeWord(mem.bytes, Number(offset), value)
        break
      }
      case 0x53: {
        const offset = stack[--sp] as bigint; const value = stack[--sp] as bigint
        gas -= mem.expand(offset, 1n)
        if (gas < 0) { status = Status.OUT_OF_GAS; break loop }
        mem.bytes[Number(offset)] = Number(value & 0xffn)
        break
      }
      case 0x54: stack[sp - 1] = state.getStorage(frame.address, stack[sp - 1] as bigint); break
      case 0x55: {
        if (frame.isStatic) { status = Status.STATIC_VIOLATION; break loop }
        const slot = stack[--sp] as bigint; const value = stack[--sp] as bigint
        if (value !== 0n && state.getStorage(frame.address, slot) === 0n) {
          gas -= GAS.sstoreSetExtra
          if (gas < 0) { status = Status.OUT_OF_GAS; break loop }
        }
        state.setStorage(frame.address, slot, value)
        break
      }
      case 0x56: {
        const dest = stack[--sp] as bigint
        if (dest >= BigInt(codeLength) || dests[Number(dest)] === 0) { status = Status.INVALID_JUMP; break loop }
        pc = Number(dest)
        continue
      }
      case 0x57: {
        const dest = stack[--sp] as bigint; const cond = stack[--sp] as bigint
        if (cond !== 0n) {
          if (dest >= BigInt(codeLength) || dests[Number(dest)] === 0) { status = Status.INVALID_JUMP; break loop }
          pc = Number(dest)
          continue
        }
        break
      }
      case 0x58: stack[sp++] = BigInt(pc); break
      case 0x59: stack[sp++] = BigInt(mem.words * 32); break
      case 0x5a: stack[sp++] = BigInt(gas); break
      case 0x5b: break
      case 0x5f: stack[sp++] = 0n; break
      case 0x60: stack[sp++] = BigInt(pc + 1 < codeLength ? code[pc + 1] as number : 0); pc += 2; continue
      case 0xf1: case 0xf2: {
        const isStaticCall = opcode === 0xf2
        const gasArg = stack[--sp] as bigint
        const to = wordToAddress(stack[--sp] as bigint)
        const value = isStaticCall ? 0n : stack[--sp] as bigint
        const inOffset = stack[--sp] as bigint; const inLength = stack[--sp] as bigint
        const outOffset = stack[--sp] as bigint; const outLength = stack[--sp] as bigint
        if (frame.isStatic && value !== 0n) { status = Status.STATIC_VIOLATION; break loop }
        gas -= mem.expand(inOffset, inLength)
        gas -= mem.expand(outOffset, outLength)
        if (gas < 0) { status = Status.OUT_OF_GAS; break loop }
        const available = gas - Math.floor(gas / RETAIN)
        const forwarded = gasArg >= BigInt(available) ? available : Number(gasArg)
        gas -= forwarded
        const inStart = Number(inOffset)
        const input = inLength === 0n ? EMPTY : mem.bytes.slice(inStart, inStart + Number(inLength))
        const result = host.call(frame, { isStatic: isStaticCall || frame.isStatic, gas: forwarded, to, value, input })
        if (result.outcome === CallOutcome.FATAL_DEPTH) { status = Status.CALL_DEPTH; break loop }
        gas += result.gasLeft
        returnData = result.output
        const copied = Math.min(Number(outLength), returnData.length)
        if (copied > 0) mem.bytes.set(returnData.subarray(0, copied), Number(outOffset))
        stack[sp++] = result.outcome === CallOutcome.SUCCEEDED ? 1n : 0n
        break
      }
      case 0xf3: case 0xfd: {
        const offset = stack[--sp] as bigint; const length = stack[--sp] as bigint
        gas -= mem.expand(offset, length)
        if (gas < 0) { status = Status.OUT_OF_GAS; break loop }
        const start = Number(offset)
        output = length === 0n ? EMPTY : mem.bytes.slice(start, start + Number(length))
        status = opcode === 0xf3 ? Status.RETURN : Status.REVERT
        break loop
      }
      case 0xfe: status = Status.INVALID_OPCODE; break loop
      default: {
        if (opcode >= 0x61 && opcode <= 0x7f) {
          const n = opcode - 0x5f
          let v = 0n
          for (let i = 1; i <= n; i++) v = (v << 8n) | BigInt(pc + i < codeLength ? code[pc + i] as number : 0)
          stack[sp++] = v
          pc += n + 1
          continue
        }
        if (opcode >= 0x80 && opcode <= 0x8f) {
          stack[sp] = stack[sp - (opcode - 0x7f)] as bigint
          sp++
          break
        }
        if (opcode >= 0x90 && opcode <= 0x9f) {
          const other = sp - 2 - (opcode - 0x90)
          const top = stack[sp - 1] as bigint
          stack[sp - 1] = stack[other] as bigint
          stack[other] = top
          break
        }
        // LOG0..LOG4: the only opcodes left in the table
        if (frame.isStatic) { status = Status.STATIC_VIOLATION; break loop }
        const offset = stack[--sp] as bigint; const length = stack[--sp] as bigint
        const topics: bigint[] = []
        for (let i = 0; i < opcode - 0xa0; i++) topics.push(stack[--sp] as bigint)
        gas -= mem.expand(offset, length)
        if (gas < 0) { status = Status.OUT_OF_GAS; break loop }
        gas -= GAS.logByte * Number(length)
        if (gas < 0) { status = Status.OUT_OF_GAS; break loop }
        const start = Number(offset)
        host.log(frame.address, topics, length === 0n ? EMPTY : mem.bytes.slice(start, start + Number(length)))
        break
      }
    }
    pc++
  }

  if (status === Status.STOP || status === Status.RETURN || status === Status.REVERT) return { status, gasLeft: gas, output }
  return { status, gasLeft: 0, output: EMPTY }
}

export const jsInterpreter: Interpreter = { kind: 'js', run: runFrame }
