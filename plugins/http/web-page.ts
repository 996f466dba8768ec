// The node's web pages (chat, admin, explorer, playground) are plain HTML/CSS/JS with no build
// step: one HTML file served under a path with strict headers, its assets from the plugin's
// own static folder. Shared here so every page gets the same security headers.
import path from 'node:path'
import { readFileSync } from 'node:fs'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'
import { COMMON_ASSET_PREFIX } from '../../core/kernel/http-service.ts'
import type { WebPageOptions } from '../../core/kernel/http-service.ts'

/** Same-origin only: pages load their own scripts and styles and call their own node's API. */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer'
} as const

/** scripts and styles several pages share (plugins/http/web), served once per server under COMMON_ASSET_PREFIX */
const COMMON_DIR = path.join(import.meta.dirname, 'web')
// keyed by the HTTP server: plugins may hand in different (encapsulated) fastify instances of it
const serversWithCommon = new WeakSet<object>()

export async function registerWebPage (app: FastifyInstance, o: WebPageOptions): Promise<void> {
  // decorateReply false + own prefix: several plugins serve static folders on one server
  if (!serversWithCommon.has(app.server)) {
    serversWithCommon.add(app.server)
    await app.register(fastifyStatic, { root: COMMON_DIR, prefix: COMMON_ASSET_PREFIX, decorateReply: false, index: false })
    // browsers ask for /favicon.ico on every page; answer it instead of logging a 404 each time
    const icon = readFileSync(path.join(COMMON_DIR, 'favicon.svg'))
    app.get('/favicon.ico', { schema: { hide: true } }, async (_request, reply) =>
      await reply.headers({ 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' }).send(icon))
  }
  await app.register(fastifyStatic, { root: o.webDir, prefix: o.assetPrefix, decorateReply: false, index: false })
  const html = readFileSync(path.join(o.webDir, 'index.html'), 'utf8')
  for (const url of o.paths) {
    app.get(url, { schema: { hide: true } }, async (request, reply) => {
      if (o.beforeSend !== undefined) await o.beforeSend(request, reply)
      return await reply.headers(PAGE_HEADERS).send(html)
    })
  }
}
