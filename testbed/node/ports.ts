// Ports for the test bed's nodes, picked below the kernel's ephemeral range (32768-60999 on
// Linux), from which every outgoing connection draws its source port: a port handed out for
// port 0 could be taken by a connection before the node binds it. Picked from a random point
// of 20000-32000 and only if bindable now.
import crypto from 'node:crypto'
import net from 'node:net'

const FIRST = 20_000
const SPAN = 12_000
let offset = crypto.randomInt(SPAN)

async function bindable (port: number): Promise<boolean> {
  return await new Promise((resolve) => {
    const srv = net.createServer()
    srv.once('error', () => resolve(false))
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)))
  })
}

export async function freePort (): Promise<number> {
  for (let tries = 0; tries < SPAN; tries++) {
    const port = FIRST + (offset++ % SPAN)
    if (await bindable(port)) return port
  }
  throw new Error(`no free port in ${FIRST}-${FIRST + SPAN - 1}`)
}
