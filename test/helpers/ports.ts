// Ports for the processes a test starts (a node binds them seconds after the pick). A port
// the kernel hands out for port 0 comes from its ephemeral range (32768-60999 here), which
// every outgoing connection of every process also draws its source port from: in a busy
// suite one took a picked port before the node bound it ("address already in use"). So ports
// are picked below that range, each tap job (TAP_JOB_ID) in a slice of its own, from a random
// point of the slice, and only if they can be bound now.
import crypto from 'node:crypto'
import net from 'node:net'

const FIRST = 20_000
const SLICE = 3_000
const SLICES = 4
const base = FIRST + (Number(process.env.TAP_JOB_ID ?? 0) % SLICES) * SLICE
let offset = crypto.randomInt(SLICE)

async function bindable (port: number): Promise<boolean> {
  return await new Promise((resolve) => {
    const srv = net.createServer()
    srv.once('error', () => resolve(false))
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)))
  })
}

/** a port on 127.0.0.1 nothing holds now, outside the ephemeral range, not handed out before by this process */
export async function freePort (): Promise<number> {
  for (let tries = 0; tries < SLICE; tries++) {
    const port = base + (offset++ % SLICE)
    if (await bindable(port)) return port
  }
  throw new Error(`no free port in ${base}-${base + SLICE - 1}`)
}
