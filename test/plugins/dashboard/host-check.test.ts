// Issue 12 item 10: the dashboard answers only to the names it is reached by legitimately.
// A DNS-rebinding page on attacker.example re-points its name at 127.0.0.1; the browser then
// sends `Host: attacker.example:8080`, which is refused.
import t from 'tap'
import { startDashboardNode } from './fixtures/dashboard-node.ts'

t.test('Host check against DNS rebinding', async (t) => {
  const node = await startDashboardNode({ config: { dashboard: { port: 0, allowedHosts: ['ops.example.net'] } } })
  t.teardown(() => node.stop())
  const get = async (host: string) => await node.dash.inject({ method: 'GET', url: '/api/chain', headers: { host } })

  for (const host of ['attacker.example:8080', 'attacker.example', 'localhost.attacker.example', '127.0.0.1.nip.io:8080', 'ops.example.net.evil.example']) {
    const res = await get(host)
    t.equal(res.statusCode, 403, host)
    t.match(res.json(), { error: /^host ".*" is not allowed: reach this server by its address or add the name to dashboard\.allowedHosts$/ })
  }
  const status = await node.dash.inject({ method: 'GET', url: '/api/status', headers: { host: 'attacker.example' } })
  t.equal(status.statusCode, 403, 'open routes are not open to a rebinding page either')

  for (const host of ['127.0.0.1:8080', 'localhost:8080', 'LOCALHOST', '[::1]:8080', '10.1.2.3', 'ops.example.net', 'OPS.example.net:443']) {
    t.equal((await get(host)).statusCode, 200, host)
  }
})

t.test('the bind address is an allowed name', async (t) => {
  const node = await startDashboardNode({ config: { dashboard: { port: 0, host: 'localhost' } } })
  t.teardown(() => node.stop())
  t.equal((await node.dash.inject({ method: 'GET', url: '/api/chain', headers: { host: 'localhost:8080' } })).statusCode, 200)
  t.equal((await node.dash.inject({ method: 'GET', url: '/api/chain', headers: { host: 'evil.example' } })).statusCode, 403)
})

t.test('allowedHosts takes names, not ports or URLs', async (t) => {
  await t.rejects(startDashboardNode({ config: { dashboard: { port: 0, allowedHosts: ['https://ops.example.net'] } } }), /dashboard\.allowedHosts/)
})
