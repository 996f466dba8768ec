// The explorer web page: plain HTML/CSS/JS (no build step) at /explorer, its assets under
// /explorer/assets/. The page reads only the public API and polls it for live updates.
import path from 'node:path'
import { readFileSync } from 'node:fs'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply } from 'fastify'

const WEB_DIR = path.join(import.meta.dirname, 'web')
export const EXPLORER_PAGE = '/explorer'
export const EXPLORER_ASSET_PREFIX = '/explorer/assets/'

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer'
}

export async function registerExplorerPage (app: FastifyInstance): Promise<void> {
  // decorateReply false + own prefix: other plugins serve their own static folders here too
  await app.register(fastifyStatic, { root: WEB_DIR, prefix: EXPLORER_ASSET_PREFIX, decorateReply: false, index: false })
  const html = readFileSync(path.join(WEB_DIR, 'index.html'), 'utf8')
  const page = async (_request: unknown, reply: FastifyReply): Promise<FastifyReply> => await reply.headers(PAGE_HEADERS).send(html)
  app.get(EXPLORER_PAGE, { schema: { hide: true } }, page)
  app.get(`${EXPLORER_PAGE}/`, { schema: { hide: true } }, page)
}
