// The playground web page at /playground, its assets under /playground/assets/. The page itself
// is public; what it calls needs the session cookie (the page logs in through POST /api/login)
// or an API token the user pastes.
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { HttpService } from '../../core/kernel/http-service.ts'

export const PLAYGROUND_PAGE = '/playground'
export const PLAYGROUND_ASSET_PREFIX = '/playground/assets/'

export async function registerPlaygroundPage (http: HttpService, app: FastifyInstance): Promise<void> {
  await http.registerWebPage(app, { webDir: path.join(import.meta.dirname, 'web'), assetPrefix: PLAYGROUND_ASSET_PREFIX, paths: [PLAYGROUND_PAGE, `${PLAYGROUND_PAGE}/`] })
}
