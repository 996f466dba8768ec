// The AssemblyScript interpreter: one frame per `run`, re-entered through the host for
// sub-calls. Before every instruction, in the same order as the JS twin: stack underflow,
// stack overflow, base gas (all from the generated table), then the handler; an undefined
// byte has no stack effect and no gas, and its handler reports an invalid opcode.
import {
  STACK_IN, STACK_OUT, BASE_GAS,
  GAS_EXP_BYTE, GAS_SHA3_WORD, GAS_COPY_WORD, GAS_LOG_BYTE, GAS_MEMORY_WORD, GAS_MEMORY_QUAD_DIVISOR,
  LIMIT_MEMORY_BYTES, LIMIT_CALL_GAS_RETAIN_DIVISOR,
  STATUS_STOP, STATUS_RETURN, STATUS_REVERT, STATUS_OUT_OF_GAS, STATUS_STACK_UNDERFLOW, STATUS_STACK_OVERFLOW,
  STATUS_INVALID_JUMP, STATUS_INVALID_OPCODE, STATUS_STATIC_VIOLATION, STATUS_CALL_DEPTH, STATUS_RETURNDATA_OUT_OF_BOUNDS,
  CALL_SUCCEEDED, CALL_FATAL_DEPTH
} from './opcodes'
import {
  F_ADDRESS, F_CALLER, F_VALUE, F_CODE_LENGTH, F_CALLDATA_LENGTH, F_CODE, F_CALLDATA, F_DESTS, F_STACK, F_MEMORY,
  F_GAS_LEFT, F_OUT, F_OUT_LENGTH, F_CONTRACT_ID, STACK_BYTES, ensureCapacity, setHeapTop
} from './frame'
import { storageLoad, storageStore, journalMark, journalRevert } from './storage-cache'
import * as u256 from './u256'
import { hostBalance, hostLog, hostCall, hostReturndataCopy } from './host'
import { resetState, absorbBlocks, absorbFinal, STATE_BYTES } from '../lib/keccak'

/** block height, timestamp, miner: written by the host once per transaction */
export const ENV: usize = memory.data(96, 32)
/** a sub-call's results: gas left (f64), return data length (i32) */
export const CALL_RESULT: usize = memory.data(16, 8)
const ZERO_WORD: usize = memory.data(32, 32)
const SPONGE: usize = memory.data(STATE_BYTES, 16)
const SHA3_RATE: i32 = 136

/** words of EVM memory in use by the running frame (saved across sub-calls) */
let memWords: i32 = 0

@inline function memoryCost (words: i64): i64 {
  return GAS_MEMORY_WORD * words + (words * words) / GAS_MEMORY_QUAD_DIVISOR
}

/** Grows the frame memory to `end` bytes (<= the limit); returns the gas that costs. */
function growTo (memBase: usize, end: i64): i64 {
  const words = i32((end + 31) >> 5)
  if (words <= memWords) return 0
  const cost = memoryCost(words) - memoryCost(memWords)
  const oldEnd = memBase + (<usize>memWords << 5)
  const newEnd = memBase + (<usize>words << 5)
  ensureCapacity(newEnd)
  memory.fill(oldEnd, 0, newEnd - oldEnd)
  memWords = words
  return cost
}

/** gas to cover [offset, offset+length) (words at the pointers); -1 past the memory limit */
function regionCost (memBase: usize, offset: usize, length: usize): i64 {
  if (u256.isZero(length)) return 0
  if (!u256.fitsU64(offset) || !u256.fitsU64(length)) return -1
  const off = load<u64>(offset), len = load<u64>(length)
  if (off > u64(LIMIT_MEMORY_BYTES) || len > u64(LIMIT_MEMORY_BYTES) || off + len > u64(LIMIT_MEMORY_BYTES)) return -1
  return growTo(memBase, i64(off + len))
}

/** gas to cover `size` bytes at the offset word */
function fixedRegionCost (memBase: usize, offset: usize, size: i64): i64 {
  if (!u256.fitsU64(offset)) return -1
  const off = load<u64>(offset)
  if (off > u64(LIMIT_MEMORY_BYTES) || off + u64(size) > u64(LIMIT_MEMORY_BYTES)) return -1
  return growTo(memBase, i64(off) + size)
}

@inline function wordsOf (length: i64): i64 { return (length + 31) >> 5 }

/** 32 big-endian bytes at p as a word at r */
@inline function loadBigEndian (r: usize, p: usize): void {
  const w3 = bswap<u64>(load<u64>(p)), w2 = bswap<u64>(load<u64>(p, 8))
  const w1 = bswap<u64>(load<u64>(p, 16)), w0 = bswap<u64>(load<u64>(p, 24))
  store<u64>(r, w0); store<u64>(r, w1, 8); store<u64>(r, w2, 16); store<u64>(r, w3, 24)
}

@inline function storeBigEndian (p: usize, a: usize): void {
  const w0 = load<u64>(a), w1 = load<u64>(a, 8), w2 = load<u64>(a, 16), w3 = load<u64>(a, 24)
  store<u64>(p, bswap<u64>(w3)); store<u64>(p, bswap<u64>(w2), 8)
  store<u64>(p, bswap<u64>(w1), 16); store<u64>(p, bswap<u64>(w0), 24)
}

/** Copies source[offset..offset+length) to dest, zeros past the source's end. */
function copyPadded (dest: usize, source: usize, sourceLength: i32, offset: usize, length: i32): void {
  let available: i32 = 0
  if (u256.fitsU64(offset) && load<u64>(offset) < u64(sourceLength)) {
    const start = i32(load<u64>(offset))
    available = min(length, sourceLength - start)
    memory.copy(dest, source + <usize>start, <usize>available)
  }
  memory.fill(dest + <usize>available, 0, <usize>(length - available))
}

function markJumpDestinations (code: usize, length: i32, dests: usize): void {
  memory.fill(dests, 0, <usize>length)
  for (let pc = 0; pc < length; pc++) {
    const op = load<u8>(code + <usize>pc)
    if (op == 0x5b) store<u8>(dests + <usize>pc, 1)
    else if (op >= 0x60 && op <= 0x7f) pc += i32(op) - 0x5f
  }
}

function halt (frame: usize, status: i32, gas: i64, out: usize, outLength: i32): i32 {
  const keepsGas = status == STATUS_STOP || status == STATUS_RETURN || status == STATUS_REVERT
  store<f64>(frame + F_GAS_LEFT, keepsGas ? f64(gas) : 0)
  store<u32>(frame + F_OUT, u32(out))
  store<i32>(frame + F_OUT_LENGTH, keepsGas ? outLength : 0)
  setHeapTop(frame)
  return status
}

@inline function isJumpDest (dest: usize, codeLength: i32, dests: usize): bool {
  return u256.fitsU64(dest) && load<u64>(dest) < u64(codeLength) && load<u8>(dests + <usize>load<u64>(dest)) == 1
}

/** Runs the frame laid out at `frame`; returns its status (results in the frame header). */
export function run (frame: usize, gasLimit: f64, isStatic: i32): i32 {
  const code = <usize>load<u32>(frame + F_CODE)
  const codeLength = load<i32>(frame + F_CODE_LENGTH)
  const calldata = <usize>load<u32>(frame + F_CALLDATA)
  const calldataLength = load<i32>(frame + F_CALLDATA_LENGTH)
  const dests = <usize>load<u32>(frame + F_DESTS)
  const stackBase = <usize>load<u32>(frame + F_STACK)
  const stackEnd = stackBase + STACK_BYTES
  const memBase = <usize>load<u32>(frame + F_MEMORY)
  const contractId = load<u32>(frame + F_CONTRACT_ID)
  markJumpDestinations(code, codeLength, dests)
  memWords = 0
  let sp = stackBase
  let pc: i32 = 0
  let gas = i64(gasLimit)
  let returnDataLength: i32 = 0

  while (true) {
    const op = <u32>load<u8>(code + <usize>pc)
    const inputs = <usize>load<u8>(STACK_IN + op) << 5
    if (sp - stackBase < inputs) return halt(frame, STATUS_STACK_UNDERFLOW, 0, 0, 0)
    if (sp - inputs + (<usize>load<u8>(STACK_OUT + op) << 5) > stackEnd) return halt(frame, STATUS_STACK_OVERFLOW, 0, 0, 0)
    gas -= i64(load<u32>(BASE_GAS + (op << 2)))
    if (gas < 0) return halt(frame, STATUS_OUT_OF_GAS, 0, 0, 0)
    const a = sp - 32
    const b = sp - 64

    switch (op) {
      case 0x00: return halt(frame, STATUS_STOP, gas, 0, 0)
      case 0x01: u256.add(b, a, b); sp = a; break
      case 0x02: u256.mul(b, a, b); sp = a; break
      case 0x03: u256.sub(b, a, b); sp = a; break
      case 0x04: u256.div(b, a, b); sp = a; break
      case 0x05: u256.sdiv(b, a, b); sp = a; break
      case 0x06: u256.mod(b, a, b); sp = a; break
      case 0x07: u256.smod(b, a, b); sp = a; break
      case 0x08: u256.addmod(sp - 96, a, b, sp - 96); sp = b; break
      case 0x09: u256.mulmod(sp - 96, a, b, sp - 96); sp = b; break
      case 0x0a: {
        gas -= GAS_EXP_BYTE * i64(u256.byteLength(b))
        if (gas < 0) return halt(frame, STATUS_OUT_OF_GAS, 0, 0, 0)
        u256.exp(b, a, b); sp = a
        break
      }
      case 0x0b: u256.signExtend(b, a, b); sp = a; break
      case 0x10: u256.setU64(b, u64(u256.lt(a, b))); sp = a; break
      case 0x11: u256.setU64(b, u64(u256.lt(b, a))); sp = a; break
      case 0x12: u256.setU64(b, u64(u256.slt(a, b))); sp = a; break
      case 0x13: u256.setU64(b, u64(u256.slt(b, a))); sp = a; break
      case 0x14: u256.setU64(b, u64(u256.eq(a, b))); sp = a; break
      case 0x15: u256.setU64(a, u64(u256.isZero(a))); break
      case 0x16: {
        store<u64>(b, load<u64>(a) & load<u64>(b)); store<u64>(b, load<u64>(a, 8) & load<u64>(b, 8), 8)
        store<u64>(b, load<u64>(a, 16) & load<u64>(b, 16), 16); store<u64>(b, load<u64>(a, 24) & load<u64>(b, 24), 24)
        sp = a
        break
      }
      case 0x17: {
        store<u64>(b, load<u64>(a) | load<u64>(b)); store<u64>(b, load<u64>(a, 8) | load<u64>(b, 8), 8)
        store<u64>(b, load<u64>(a, 16) | load<u64>(b, 16), 16); store<u64>(b, load<u64>(a, 24) | load<u64>(b, 24), 24)
        sp = a
        break
      }
      case 0x18: {
        store<u64>(b, load<u64>(a) ^ load<u64>(b)); store<u64>(b, load<u64>(a, 8) ^ load<u64>(b, 8), 8)
        store<u64>(b, load<u64>(a, 16) ^ load<u64>(b, 16), 16); store<u64>(b, load<u64>(a, 24) ^ load<u64>(b, 24), 24)
        sp = a
        break
      }
      case 0x19: {
        store<u64>(a, ~load<u64>(a)); store<u64>(a, ~load<u64>(a, 8), 8)
        store<u64>(a, ~load<u64>(a, 16), 16); store<u64>(a, ~load<u64>(a, 24), 24)
        break
      }
      case 0x1a: u256.byteAt(b, a, b); sp = a; break
      case 0x1b: u256.shl(b, a, b); sp = a; break
      case 0x1c: u256.shr(b, a, b); sp = a; break
      case 0x1d: u256.sar(b, a, b); sp = a; break
      case 0x20: {
        const cost = regionCost(memBase, a, b)
        if (cost < 0) return halt(frame, STATUS_OUT_OF_GAS, 0, 0, 0)
        gas -= cost
        if (gas < 0) return halt(frame, STATUS_OUT_OF_GAS, 0, 0, 0)
        const length = u256.isZero(b) ? 0 : i32(load<u64>(b))
        gas -= GAS_SHA3_WORD * wordsOf(length)
        if (gas < 0) return halt(frame, STATUS_OUT_OF_GAS, 0, 0, 0)
        const input = length == 0 ? memBase : memBase + <usize>load<u64>(a)
        resetState(SPONGE)
        const done = absorbBlocks(SPONGE, input, length, SHA3_RATE)
        absorbFinal(SPONGE, input + <usize>done, length - done, SHA3_RATE)
        loadBigEndian(b, SPONGE)
        sp = a
        break
      }
      case 0x30: u256.copyWord(sp, frame + F_ADDRESS); sp += 32; break
      case 0x31: hostBalance(a, a); break
      case 0x32: u256.copyWord(sp, frame + F_CALLER); sp += 32; break
      case 0x33: u256.copyWord(sp, frame + F_VALUE); sp += 32; break
      case 0x34: {
        if (u256.fitsU64(a) && load<u64>(a) < u64(calldataLength)) loadBigEndian(a, calldata + <usize>load<u64>(a))
        else u256.setZero(a)
        break
      }
      case 0x35: u256.setU64(sp, u64(calldataLength)); sp += 32; break
      case 0x36: case 0x38: case 0x3a: {
        const dest = a, offset = b, size = sp - 96
        sp -= 96
        const cost = regionCost(memBase, dest, size)
        if (cost < 0) return halt(frame, STATUS_OUT_OF_GAS, 0, 0, 0)
        gas -= cost
        if (gas < 0) return halt(frame, STATUS_OUT_OF_GAS, 0, 0, 0)
        const length = u256.isZero(size) ? 0 : i32(load<u64>(size))
        gas -= GAS_COPY_WORD * wordsOf(length)
        if (gas < 0) return halt(frame, STATUS_OUT_OF_GAS, 0, 0, 0)
        if (op == 0x3a) {
          const limit = u64(returnDataLength)
          if (!u256.fitsU64(offset) || load<u64>(offset) > limit || load<u64>(offset) + u64(length) > limit) return halt(frame, STATUS_RETURNDATA_OUT_OF_BOUNDS, 0, 0, 0)
          if (length > 0) hostReturndataCopy(memBase + <usize>load<u64>(dest), i32(load<u64>(offset)), length)
        } else if (length > 0) {
          const target = memBase + <usize>load<u64>(dest)
          if (op == 0x36) copyPadded(target, calldata, calldataLength, offset, length)
          else copyPadded(target, code, codeLength, offset, length)
        }
        break
      }
      case 0x37: u256.setU64(sp, u64(codeLength)); sp += 32; break
      case 0x39: u256.setU64(sp, u64(returnDataLength)); sp += 32; break
      case 0x3b: hostBalance(frame + F_ADDRESS, sp); sp += 32; break
      case 0x40: u256.copyWord(sp, ENV); sp += 32; break
      case 0x41: u256.copyWord(sp, ENV + 32); sp += 32; break
      case 0x42: u256.copyWord(sp, ENV + 64); sp += 32; break
      case 0x50: sp = a; break
      case 0x51: {
        const cost = fixedRegionCost(memBase, a, 32)
        if (cost < 0) return halt(frame, STATUS_OUT_OF_GAS, 0, 0, 0)
        gas -= cost
        if (gas < 0) return halt(frame, STATUS_OUT_OF_GAS, 0, 0, 0)
        loadBigEndian(a, memBase + <usize>load<u64>(a))
        break
      }
      case 0x52: case 0x53: {
        const size: i64 = op == 0x52 ? 32 : 1
        const cost = fixedRegionCost(memBase, a, size)
        if (cost < 0) return halt(frame, STATUS_OUT_OF_GAS, 0, 0, 0)
        gas -= cost
        if (gas < 0) return halt(frame, STATUS_OUT_OF_GAS, 0, 0, 0)
        const at = memBase + <usize>load<u64>(a)
        if (op == 0x52) storeBigEndian(at, b)
        else store<u8>(at, load<u8>(b))
        sp = b
        break
      }
      case 0x54: storageLoad(contractId, a, a); break
      case 0x55: {
        if (isStatic != 0) return halt(frame, STATUS_STATIC_VIOLATION, 0, 0, 0)
        const extra = storageStore(contractId, a, b, gas)
        if (extra < 0) return halt(frame, STATUS_OUT_OF_GAS, 0, 0, 0)
        gas -= extra
        sp = b
        break
      }
      case 0x56: {
        if (!isJumpDest(a, codeLength, dests)) return halt(frame, STATUS_INVALID_JUMP, 0, 0, 0)
        pc = i32(load<u64>(a))
        sp = a
        continue
      }
      case 0x57: {
        sp = b
        if (!u256.isZero(b)) {
          if (!isJumpDest(a, codeLength, dests)) return halt(frame, STATUS_INVALID_JUMP, 0, 0, 0)
          pc = i32(load<u64>(a))
          continue
        }
        break
      }
      case 0x58: u256.setU64(sp, u64(pc)); sp += 32; break
      case 0x59: u256.setU64(sp, u64(memWords) << 5); sp += 32; break
      case 0x5a: u256.setU64(sp, u64(gas)); sp += 32; break
      case 0x5b: break
      case 0x5f: u256.setZero(sp); sp += 32; break
      case 0x60: {
        u256.setU64(sp, u64(load<u8>(code + <usize>pc, 1)))
        sp += 32
        pc += 2
        continue
      }
      case 0x61: case 0x62: case 0x63: case 0x64: case 0x65: case 0x66: case 0x67: case 0x68:
      case 0x69: case 0x6a: case 0x6b: case 0x6c: case 0x6d: case 0x6e: case 0x6f: case 0x70:
      case 0x71: case 0x72: case 0x73: case 0x74: case 0x75: case 0x76: case 0x77: case 0x78:
      case 0x79: case 0x7a: case 0x7b: case 0x7c: case 0x7d: case 0x7e: case 0x7f: {
        const n = <usize>(op - 0x5f)
        u256.setZero(sp)
        const immediate = code + <usize>pc + 1
        for (let k: usize = 0; k < n; k++) store<u8>(sp + n - 1 - k, load<u8>(immediate + k))
        sp += 32
        pc += i32(n) + 1
        continue
      }
      case 0x80: case 0x81: case 0x82: case 0x83: case 0x84: case 0x85: case 0x86: case 0x87:
      case 0x88: case 0x89: case 0x8a: case 0x8b: case 0x8c: case 0x8d: case 0x8e: case 0x8f: {
        u256.copyWord(sp, sp - (<usize>(op - 0x7f) << 5))
        sp += 32
        break
      }
      case 0x90: case 0x91: case 0x92: case 0x93: case 0x94: case 0x95: case 0x96: case 0x97:
      case 0x98: case 0x99: case 0x9a: case 0x9b: case 0x9c: case 0x9d: case 0x9e: case 0x9f: {
        const other = a - (<usize>(op - 0x8f) << 5)
        const t0 = load<u64>(a), t1 = load<u64>(a, 8), t2 = load<u64>(a, 16), t3 = load<u64>(a, 24)
        u256.copyWord(a, other)
        store<u64>(other, t0); store<u64>(other, t1, 8); store<u64>(other, t2, 16); store<u64>(other, t3, 24)
        break
      }
      case 0xa0: case 0xa1: case 0xa2: case 0xa3: case 0xa4: {
        if (isStatic != 0) return halt(frame, STATUS_STATIC_VIOLATION, 0, 0, 0)
        const topics = i32(op - 0xa0)
        sp -= <usize>(2 + topics) << 5
        const cost = regionCost(memBase, a, b)
        if (cost < 0) return halt(frame, STATUS_OUT_OF_GAS, 0, 0, 0)
        gas -= cost
        if (gas < 0) return halt(frame, STATUS_OUT_OF_GAS, 0, 0, 0)
        const length = u256.isZero(b) ? 0 : i32(load<u64>(b))
        gas -= GAS_LOG_BYTE * i64(length)
        if (gas < 0) return halt(frame, STATUS_OUT_OF_GAS, 0, 0, 0)
        hostLog(topics, a - 64, length == 0 ? memBase : memBase + <usize>load<u64>(a), length)
        break
      }
      case 0xf1: case 0xf2: {
        const staticCall = op == 0xf2
        const gasArg = a, to = b
        const value = staticCall ? ZERO_WORD : sp - 96
        const args = staticCall ? sp - 96 : sp - 128
        const inOffset = args, inSize = args - 32, outOffset = args - 64, outSize = args - 96
        sp = outSize
        if (isStatic != 0 && !u256.isZero(value)) return halt(frame, STATUS_STATIC_VIOLATION, 0, 0, 0)
        const inCost = regionCost(memBase, inOffset, inSize)
        if (inCost < 0) return halt(frame, STATUS_OUT_OF_GAS, 0, 0, 0)
        const outCost = regionCost(memBase, outOffset, outSize)
        if (outCost < 0) return halt(frame, STATUS_OUT_OF_GAS, 0, 0, 0)
        gas -= inCost + outCost
        if (gas < 0) return halt(frame, STATUS_OUT_OF_GAS, 0, 0, 0)
        const available = gas - gas / LIMIT_CALL_GAS_RETAIN_DIVISOR
        const forwarded = u256.fitsU64(gasArg) && load<u64>(gasArg) < u64(available) ? i64(load<u64>(gasArg)) : available
        gas -= forwarded
        const inLength = u256.isZero(inSize) ? 0 : i32(load<u64>(inSize))
        const outLength = u256.isZero(outSize) ? 0 : i32(load<u64>(outSize))
        const input = inLength == 0 ? memBase : memBase + <usize>load<u64>(inOffset)
        const output = outLength == 0 ? memBase : memBase + <usize>load<u64>(outOffset)
        const words = memWords
        const mark = journalMark()
        setHeapTop(memBase + (<usize>words << 5))
        const outcome = hostCall(staticCall || isStatic != 0 ? 1 : 0, f64(forwarded), to, value, input, inLength, output, outLength)
        memWords = words
        // a callee that failed leaves no storage writes behind
        if (outcome != CALL_SUCCEEDED) journalRevert(mark)
        if (outcome == CALL_FATAL_DEPTH) return halt(frame, STATUS_CALL_DEPTH, 0, 0, 0)
        gas += i64(load<f64>(CALL_RESULT))
        returnDataLength = load<i32>(CALL_RESULT, 8)
        u256.setU64(sp, outcome == CALL_SUCCEEDED ? 1 : 0)
        sp += 32
        break
      }
      case 0xf3: case 0xfd: {
        const cost = regionCost(memBase, a, b)
        if (cost < 0) return halt(frame, STATUS_OUT_OF_GAS, 0, 0, 0)
        gas -= cost
        if (gas < 0) return halt(frame, STATUS_OUT_OF_GAS, 0, 0, 0)
        const length = u256.isZero(b) ? 0 : i32(load<u64>(b))
        return halt(frame, op == 0xf3 ? STATUS_RETURN : STATUS_REVERT, gas, length == 0 ? memBase : memBase + <usize>load<u64>(a), length)
      }
      default: return halt(frame, STATUS_INVALID_OPCODE, 0, 0, 0)
    }
    pc++
  }
  return halt(frame, STATUS_STOP, gas, 0, 0)
}
