// The playground web page: plain HTML/CSS/JS (no build step) at /playground, its assets under
// /playground/assets/. The page itself is public; what it calls needs the session cookie (the
// page logs in through POST /api/login) or an API token the user pastes.
import path from 'node:path'
import { readFileSync } from 'node:fs'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply } from 'fastify'

const WEB_DIR = path.join(import.meta.dirname, 'web')
export const PLAYGROUND_PAGE = '/playground'
export const PLAYGROUND_ASSET_PREFIX = '/playground/assets/'

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer'
}

export async function registerPlaygroundPage (app: FastifyInstance): Promise<void> {
  // decorateReply false + own prefix: other plugins serve their own static folders here too
  await app.register(fastifyStatic, { root: WEB_DIR, prefix: PLAYGROUND_ASSET_PREFIX, decorateReply: false, index: false })
  const html = readFileSync(path.join(WEB_DIR, 'index.html'), 'utf8')
  const page = async (_request: unknown, reply: FastifyReply): Promise<FastifyReply> => await reply.headers(PAGE_HEADERS).send(html)
  app.get(PLAYGROUND_PAGE, { schema: { hide: true } }, page)
  app.get(`${PLAYGROUND_PAGE}/`, { schema: { hide: true } }, page)
}
