// Ports for the test bed's nodes, picked below the kernel's ephemeral range (32768-60999 on
// Linux), from which every outgoing connection draws its source port: a port handed out for
// port 0 could be taken by a connection before the node binds it. Picked from a random point
// of 20000-32000 and only if bindable now.
import crypto from 'node:crypto'
import net from 'node:net'

async function bindable (port: number): Promise<boolean> {
  return await new Promise((resolve) => {
    const srv = net.createServer()
    srv.once('error', () => resolve(false))
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)))
  })
}

/**
 * A picker of ports on 127.0.0.1 in [first, first + span) that nothing holds now, starting from
 * a random point and never handing a port out twice in a row of `span` picks.
 */
export function portPicker (first: number, span: number): () => Promise<number> {
  let offset = crypto.randomInt(span)
  return async () => {
    for (let tries = 0; tries < span; tries++) {
      const port = first + (offset++ % span)
      if (await bindable(port)) return port
    }
    throw new Error(`no free port in ${first}-${first + span - 1}`)
  }
}

export const freePort = portPicker(20_000, 12_000)
