// Do the machine's cores scale? One vs two worker threads running the same kernel at once,
// for the scalar and the SIMD PoW cores and for a latency-bound JS loop (one dependent chain
// of multiplies, which leaves the execution units nearly idle). Run alone on a quiet machine:
//   node bench/pow-threads.ts [rounds] [ms]
// Reading it: on two independent cores every kernel scales ~2x. If two vCPUs are hyperthreads
// of one physical core, the latency-bound loop still scales ~2x but a kernel that keeps the
// execution units busy (the SIMD core) scales far less, and its per-thread rate per CPU-second
// drops with two threads. Under load the wall figures measure the neighbours, not the cores.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads'
import { getPowCore } from '../core/pow/pow-core.ts'

type Kernel = 'wasm-scalar' | 'wasm-simd' | 'js-latency'
interface Sample { ops: number, wall: number, cpu: number }
const KERNELS: Kernel[] = ['wasm-scalar', 'wasm-simd', 'js-latency']

// a zero target: no hash meets it, so every nonce is hashed
const UNREACHABLE = new Uint8Array(64)

if (!isMainThread) {
  const prefix = new Uint8Array(264).map((_, i) => (i * 37 + 11) & 255)
  let start = (workerData as { seed: number }).seed * 1e12
  let chain = 1
  const run: Record<Kernel, () => number> = {
    'wasm-scalar': () => { getPowCore('wasm-scalar').search(prefix, start, 20_000, UNREACHABLE); start += 20_000; return 20_000 },
    'wasm-simd': () => { getPowCore('wasm-simd').search(prefix, start, 20_000, UNREACHABLE); start += 20_000; return 20_000 },
    'js-latency': () => {
      let x = chain
      for (let i = 0; i < 1_000_000; i++) x = Math.imul(x, 0x2c9277b5) + 1
      chain = x
      return 1_000_000
    }
  }
  for (const k of KERNELS) for (let i = 0; i < 50; i++) run[k]() // compiled and tiered up
  parentPort!.postMessage('ready')
  parentPort!.on('message', ({ kernel, ms }: { kernel: Kernel, ms: number }) => {
    let ops = 0
    const t0 = performance.now()
    const u0 = process.threadCpuUsage()
    do ops += run[kernel]()
    while (performance.now() - t0 < ms)
    const u1 = process.threadCpuUsage()
    const sample: Sample = { ops, wall: (performance.now() - t0) / 1000, cpu: (u1.user - u0.user + u1.system - u0.system) / 1e6 }
    parentPort!.postMessage(sample)
  })
} else {
  const rounds = Number(process.argv[2] ?? 7)
  const ms = Number(process.argv[3] ?? 400)
  const workers = await Promise.all([1, 2].map(async (seed) => await new Promise<Worker>((resolve) => {
    const w = new Worker(new URL(import.meta.url), { workerData: { seed } })
    w.once('message', () => { resolve(w) })
  })))
  const sample = async (w: Worker, kernel: Kernel): Promise<Sample> => await new Promise((resolve) => {
    w.once('message', resolve)
    w.postMessage({ kernel, ms })
  })
  const wallRatio: Record<Kernel, number[]> = { 'wasm-scalar': [], 'wasm-simd': [], 'js-latency': [] }
  const cpuRatio: Record<Kernel, number[]> = { 'wasm-scalar': [], 'wasm-simd': [], 'js-latency': [] }
  const single: Record<Kernel, number[]> = { 'wasm-scalar': [], 'wasm-simd': [], 'js-latency': [] }
  for (let r = 0; r < rounds; r++) {
    for (const k of KERNELS) {
      const one = await sample(workers[0]!, k)
      const two = await Promise.all(workers.map(async (w) => await sample(w, k)))
      const rate = (s: Sample): number => s.ops / s.wall
      const perCpu = (s: Sample): number => s.ops / s.cpu
      wallRatio[k].push((rate(two[0]!) + rate(two[1]!)) / rate(one))
      cpuRatio[k].push((perCpu(two[0]!) + perCpu(two[1]!)) / 2 / perCpu(one))
      single[k].push(rate(one))
    }
  }
  const mmm = (v: number[]): string => {
    const s = [...v].sort((a, b) => a - b)
    return `${s[0]!.toFixed(2)} / ${s[s.length >> 1]!.toFixed(2)} / ${s[s.length - 1]!.toFixed(2)}`
  }
  console.log('kernel        1 thread (ops/s, median)  2 threads / 1 (wall, min/med/max)  per-thread rate per CPU-second, 2 / 1')
  for (const k of KERNELS) {
    const med = [...single[k]].sort((a, b) => a - b)[single[k].length >> 1]!
    console.log(`${k.padEnd(13)} ${med.toExponential(3).padEnd(25)} ${mmm(wallRatio[k]).padEnd(34)} ${mmm(cpuRatio[k])}`)
  }
  await Promise.all(workers.map(async (w) => await w.terminate()))
}
