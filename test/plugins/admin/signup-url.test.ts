// The signup_url of POST /api/admin/invites/create (SPEC 4.4) is a usable link even when the
// request carried no Host header (HTTP/1.0): it used to read `http:///?invite=CODE-...`.
import t from 'tap'
import type { FastifyRequest } from 'fastify'
import { signupUrl } from '../../../plugins/admin/routes.ts'

const req = (host: string | undefined, localAddress?: string, localPort?: number): FastifyRequest =>
  ({ protocol: 'http', host, socket: { localAddress, localPort } }) as unknown as FastifyRequest

t.test('signup_url', async (t) => {
  t.equal(signupUrl(req('node.example:8081'), 'CODE-ABCDEF'), 'http://node.example:8081/?invite=CODE-ABCDEF', 'the Host header when sent')
  t.equal(signupUrl(req('', '127.0.0.1', 9281), 'CODE-ABCDEF'), 'http://127.0.0.1:9281/?invite=CODE-ABCDEF', 'no Host: the address the connection arrived on')
  t.equal(signupUrl(req(undefined, '::ffff:10.0.0.2', 8081), 'CODE-ABCDEF'), 'http://10.0.0.2:8081/?invite=CODE-ABCDEF', 'IPv4-mapped addresses unwrapped')
  t.equal(signupUrl(req('', '::1', 8081), 'CODE-ABCDEF'), 'http://[::1]:8081/?invite=CODE-ABCDEF', 'IPv6 in brackets')
  t.equal(signupUrl(req('', undefined, undefined), 'CODE-ABCDEF'), 'http://localhost/?invite=CODE-ABCDEF', 'no socket address at all')
})
