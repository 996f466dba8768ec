// Idle Server-Sent Events connections: opened with a session cookie, read and otherwise left
// alone, as a browser tab on the chat page holds one.
import http from 'node:http'

export interface SseConnection { close(): void }

export function openSse (port: number, cookie: string, timeoutMs = 30_000): Promise<SseConnection> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/api/stream', headers: { accept: 'text/event-stream', cookie }, agent: false })
    const timer = setTimeout(() => { req.destroy(); reject(new Error(`SSE connection not answered within ${timeoutMs} ms`)) }, timeoutMs)
    req.on('error', (err) => { clearTimeout(timer); reject(err) })
    req.on('response', (res) => {
      clearTimeout(timer)
      if (res.statusCode !== 200) {
        res.resume()
        reject(new Error(`SSE connection answered ${res.statusCode}`))
        return
      }
      res.resume() // heartbeats and events are read and dropped
      res.on('error', () => {})
      resolve({ close: () => { req.destroy() } })
    })
    req.end()
  })
}

/** Opens `count` connections, `batch` at a time (a burst of thousands would be a different test). */
export async function openMany (port: number, cookie: string, count: number, batch = 100): Promise<SseConnection[]> {
  const out: SseConnection[] = []
  for (let i = 0; i < count; i += batch) {
    out.push(...await Promise.all(Array.from({ length: Math.min(batch, count - i) }, async () => await openSse(port, cookie))))
  }
  return out
}
