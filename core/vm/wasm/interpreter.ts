// The JS side of the AssemblyScript interpreter (wasm/assembly/vm.ts): lays out each frame in
// the module's memory, runs it, and answers its imports (storage, balances, logs, sub-calls)
// from the FrameHost of the frame that is running. Sub-calls re-enter the module: a frame
// stack here mirrors the one in linear memory. The module caches the transaction's storage and
// hands its writes back (storageFlush) when the transaction's frame succeeds.
import { loadWasmCore } from '../../wasm/load.ts'
import { GAS } from '../params.ts'
import { Status } from '../status.ts'
import { addressToWord, wordToAddress } from '../words.ts'
import type { ExecEnv } from '../host.ts'
import type { FrameHost, FrameInput, FrameOutput, Interpreter } from '../interpreter.ts'

interface VmExports {
  memory: WebAssembly.Memory
  frameAlloc(codeLength: number, calldataLength: number): number
  run(frame: number, gas: number, isStatic: number): number
  envPointer(): number
  callResultPointer(): number
  resetFrames(): void
  flushStorage(): void
}

// frame header offsets, as in wasm/assembly/vm/frame.ts
const F_ADDRESS = 0
const F_CALLER = 32
const F_VALUE = 64
const F_CODE = 104
const F_CALLDATA = 108
const F_GAS_LEFT = 128
const F_OUT = 136
const F_OUT_LENGTH = 140
const F_CONTRACT_ID = 144

const EMPTY = new Uint8Array(0)
const MASK64 = (1n << 64n) - 1n

interface RunningFrame {
  frame: FrameInput
  host: FrameHost
  returnData: Uint8Array
}

class WasmVm implements Interpreter {
  readonly kind = 'wasm' as const
  #exports: VmExports | null = null
  #buffer: ArrayBuffer | null = null
  #bytes = new Uint8Array(0)
  #u32 = new Uint32Array(0)
  #u64 = new BigUint64Array(0)
  #f64 = new Float64Array(0)
  readonly #running: RunningFrame[] = []
  #envOf: ExecEnv | null = null
  /** the storage cache's contract numbers, per transaction */
  readonly #contractIds = new Map<string, number>()
  readonly #contracts: string[] = []

  #vm (): VmExports {
    if (this.#exports === null) {
      const instance = loadWasmCore('vm', {
        vm: {
          sload: (slot: number, out: number) => { this.#sload(slot, out) },
          sstore: (slot: number, value: number, gasLeft: number) => this.#sstore(slot, value, gasLeft),
          balance: (addr: number, out: number) => { this.#balance(addr, out) },
          log: (topicCount: number, topic0: number, data: number, length: number) => { this.#log(topicCount, topic0, data, length) },
          call: (isStatic: number, gas: number, to: number, value: number, input: number, inputLength: number, out: number, outLength: number) =>
            this.#call(isStatic, gas, to, value, input, inputLength, out, outLength),
          returndataCopy: (dest: number, offset: number, length: number) => { this.#returndataCopy(dest, offset, length) },
          storageFlush: (id: number, slot: number, value: number) => { this.#storageFlush(id, slot, value) }
        }
      })
      this.#exports = instance.exports as unknown as VmExports
    }
    return this.#exports
  }

  /** Views of the module's memory, renewed whenever it has grown. */
  #views (): void {
    const buffer = (this.#exports as VmExports).memory.buffer
    if (buffer !== this.#buffer) {
      this.#buffer = buffer
      this.#bytes = new Uint8Array(buffer)
      this.#u32 = new Uint32Array(buffer)
      this.#u64 = new BigUint64Array(buffer)
      this.#f64 = new Float64Array(buffer)
    }
  }

  #readWord (ptr: number): bigint {
    const u64 = this.#u64
    const i = ptr >>> 3
    const low = u64[i] as bigint
    const w1 = u64[i + 1] as bigint
    const w2 = u64[i + 2] as bigint
    const w3 = u64[i + 3] as bigint
    if ((w1 | w2 | w3) === 0n) return low
    return low | (w1 << 64n) | (w2 << 128n) | (w3 << 192n)
  }

  #writeWord (ptr: number, value: bigint): void {
    const u64 = this.#u64
    const i = ptr >>> 3
    if (value <= MASK64) {
      u64[i] = value
      u64[i + 1] = 0n
      u64[i + 2] = 0n
      u64[i + 3] = 0n
      return
    }
    u64[i] = value
    u64[i + 1] = value >> 64n
    u64[i + 2] = value >> 128n
    u64[i + 3] = value >> 192n
  }

  #current (): RunningFrame { return this.#running[this.#running.length - 1] as RunningFrame }

  #sload (slot: number, out: number): void {
    this.#views()
    const { frame, host } = this.#current()
    this.#writeWord(out, host.state.getStorage(frame.address, this.#readWord(slot)))
  }

  #sstore (slotPtr: number, valuePtr: number, gasLeft: number): number {
    this.#views()
    const { frame, host } = this.#current()
    const slot = this.#readWord(slotPtr)
    const value = this.#readWord(valuePtr)
    const extra = value !== 0n && host.state.getStorage(frame.address, slot) === 0n ? GAS.sstoreSetExtra : 0
    if (extra > gasLeft) return -1
    host.state.setStorage(frame.address, slot, value)
    return extra
  }

  #balance (addr: number, out: number): void {
    this.#views()
    const { host } = this.#current()
    this.#writeWord(out, host.state.getBalance(wordToAddress(this.#readWord(addr))))
  }

  #log (topicCount: number, topic0: number, data: number, length: number): void {
    this.#views()
    const { frame, host } = this.#current()
    const topics: bigint[] = []
    for (let i = 0; i < topicCount; i++) topics.push(this.#readWord(topic0 - 32 * i))
    host.log(frame.address, topics, this.#bytes.slice(data, data + length))
  }

  #call (isStatic: number, gas: number, to: number, value: number, input: number, inputLength: number, out: number, outLength: number): number {
    this.#views()
    const running = this.#current()
    const result = running.host.call(running.frame, {
      isStatic: isStatic !== 0,
      gas,
      to: wordToAddress(this.#readWord(to)),
      value: this.#readWord(value),
      input: this.#bytes.slice(input, input + inputLength)
    })
    running.returnData = result.output
    this.#views()
    const resultPtr = (this.#exports as VmExports).callResultPointer()
    this.#f64[resultPtr >>> 3] = result.gasLeft
    this.#u32[(resultPtr + 8) >>> 2] = result.output.length
    const copied = Math.min(outLength, result.output.length)
    if (copied > 0) this.#bytes.set(result.output.subarray(0, copied), out)
    return result.outcome
  }

  #storageFlush (id: number, slot: number, value: number): void {
    this.#views()
    this.#current().host.state.setStorage(this.#contracts[id] as string, this.#readWord(slot), this.#readWord(value))
  }

  #contractId (address: string): number {
    let id = this.#contractIds.get(address)
    if (id === undefined) {
      id = this.#contracts.length
      this.#contracts.push(address)
      this.#contractIds.set(address, id)
    }
    return id
  }

  #returndataCopy (dest: number, offset: number, length: number): void {
    this.#views()
    this.#bytes.set(this.#current().returnData.subarray(offset, offset + length), dest)
  }

  #writeEnv (vm: VmExports, env: ExecEnv): void {
    const at = vm.envPointer()
    this.#writeWord(at, BigInt(env.blockHeight))
    this.#writeWord(at + 32, BigInt(Math.floor(env.timestamp)))
    this.#writeWord(at + 64, addressToWord(env.miner))
  }

  run (frame: FrameInput, host: FrameHost): FrameOutput {
    const vm = this.#vm()
    const outermost = this.#running.length === 0
    if (outermost) {
      // a new transaction (and a host exception may have unwound frames without their cleanup)
      vm.resetFrames()
      this.#contractIds.clear()
      this.#contracts.length = 0
    }
    const base = vm.frameAlloc(frame.code.length, frame.calldata.length)
    this.#views()
    if (this.#running.length === 0 || this.#envOf !== host.env) {
      this.#writeEnv(vm, host.env)
      this.#envOf = host.env
    }
    this.#writeWord(base + F_ADDRESS, addressToWord(frame.address))
    this.#writeWord(base + F_CALLER, addressToWord(frame.caller))
    this.#writeWord(base + F_VALUE, frame.value)
    const u32 = this.#u32
    u32[(base + F_CONTRACT_ID) >>> 2] = this.#contractId(frame.address)
    this.#bytes.set(frame.code, u32[(base + F_CODE) >>> 2] as number)
    this.#bytes.set(frame.calldata, u32[(base + F_CALLDATA) >>> 2] as number)

    this.#running.push({ frame, host, returnData: EMPTY })
    let status: number
    try {
      status = vm.run(base, frame.gas, frame.isStatic ? 1 : 0)
      if (outermost && (status === Status.STOP || status === Status.RETURN)) vm.flushStorage()
    } finally {
      this.#running.pop()
    }
    this.#views()
    const gasLeft = this.#f64[(base + F_GAS_LEFT) >>> 3] as number
    const out = this.#u32[(base + F_OUT) >>> 2] as number
    const outLength = this.#u32[(base + F_OUT_LENGTH) >>> 2] as number
    return { status, gasLeft, output: outLength === 0 ? EMPTY : this.#bytes.slice(out, out + outLength) }
  }
}

export const wasmInterpreter: Interpreter = new WasmVm()
