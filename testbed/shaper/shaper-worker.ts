// The thread the test bed's links run on (shaper-thread.ts starts it). A link's delay is a
// timer on this thread's event loop: alone here, it fires on time, whatever the runner's own
// thread is doing (polling the probes, signing the load's transactions, parsing events).
import { parentPort } from 'node:worker_threads'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { Shaper } from './shaper.ts'
import { seededRandom } from '../runner/random.ts'
import type { ShaperReply, ShaperRequest } from './shaper-thread.ts'

const shaper = new Shaper()
const lag = monitorEventLoopDelay({ resolution: 1 })
lag.enable()

async function handle (req: ShaperRequest): Promise<unknown> {
  switch (req.op) {
    case 'add': return await shaper.add(req.link, req.listenerPort, seededRandom(req.seed), req.settings)
    case 'set': return shaper.setLinks(req.indexes, req.change)
    case 'view': return shaper.view()
    case 'lag':
      // the histogram counts in ns, from a 1 ms sampling timer
      return { p50: Math.max(0, lag.percentile(50) / 1e6 - 1), p99: Math.max(0, lag.percentile(99) / 1e6 - 1), max: Math.max(0, lag.max / 1e6 - 1) }
    case 'resetLag':
      lag.reset()
      return null
    case 'close':
      lag.disable()
      await shaper.close()
      return null
  }
}

parentPort?.on('message', (req: ShaperRequest) => {
  handle(req).then(
    (value) => { parentPort?.postMessage({ id: req.id, ok: true, value } satisfies ShaperReply) },
    (err: unknown) => { parentPort?.postMessage({ id: req.id, ok: false, error: err instanceof Error ? err.message : String(err) } satisfies ShaperReply) }
  )
})
