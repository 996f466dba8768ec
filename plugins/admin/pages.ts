// The admin UI at /admin (plain HTML/CSS/JS) and its assets under /admin/assets/, behind the
// same Basic auth as the API, so the browser prompts for the credentials.
import path from 'node:path'
import { readFileSync } from 'node:fs'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'

const WEB_DIR = path.join(import.meta.dirname, 'web')

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer'
}

export async function registerAdminPage (app: FastifyInstance): Promise<void> {
  await app.register(fastifyStatic, { root: WEB_DIR, prefix: '/admin/assets/', decorateReply: false, index: false })
  const html = readFileSync(path.join(WEB_DIR, 'index.html'), 'utf8')
  for (const url of ['/admin', '/admin/']) {
    app.get(url, { schema: { hide: true } }, async (_request, reply) => reply.headers(PAGE_HEADERS).send(html))
  }
}
