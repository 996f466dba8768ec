// The explorer web page at /explorer, its assets under /explorer/assets/. The page reads only
// the public API and polls it for live updates.
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { HttpService } from '../../core/kernel/http-service.ts'

export const EXPLORER_PAGE = '/explorer'
export const EXPLORER_ASSET_PREFIX = '/explorer/assets/'

export async function registerExplorerPage (http: HttpService, app: FastifyInstance): Promise<void> {
  await http.registerWebPage(app, { webDir: path.join(import.meta.dirname, 'web'), assetPrefix: EXPLORER_ASSET_PREFIX, paths: [EXPLORER_PAGE, `${EXPLORER_PAGE}/`] })
}
