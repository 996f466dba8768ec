// The test bed's probe: a plugin every test bed node loads (by path, from the config the test
// bed writes). It records the node's own timing events (recorder.ts) and answers the test bed
// on 127.0.0.1 only (routes.ts). Not part of the standard profile: an instrument.
import { definePlugin } from '../../core/kernel/plugin.ts'
import { EventRecorder } from './recorder.ts'
import { startProbeServer } from './routes.ts'

interface ProbeConfig { port: number }

export default definePlugin<ProbeConfig>({
  name: 'testbed-probe',
  apiVersion: '1.0',
  description: 'test bed instrument: timing events of blocks and transactions, tx submission, chain listing',
  provides: [],
  needs: ['chain', 'mempool'],
  optional: ['peers', 'miner'],
  configSchema: {
    properties: { port: { type: 'integer', minimum: 1, maximum: 65535 } },
    required: ['port'],
    additionalProperties: false
  },
  register (ctx) {
    const recorder = new EventRecorder()
    recorder.tap(ctx.hooks, 'testbed-probe')
    let close: (() => Promise<void>) | null = null
    ctx.onStart(async () => {
      close = await startProbeServer(ctx.config.port, {
        recorder,
        chain: ctx.resolve('chain'),
        mempool: ctx.resolve('mempool'),
        peers: ctx.tryResolve('peers'),
        miner: ctx.tryResolve('miner')
      })
    })
    ctx.onClose(async () => { await close?.() })
  }
})
