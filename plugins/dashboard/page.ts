// The dashboard page at / (issue 13): plain HTML/CSS/JS like the node's other pages, with the
// same security headers (the `http` service's registerWebPage), and uPlot for the charts served from node_modules
// (no CDN: the dashboard works offline and under the page's same-origin CSP).
import path from 'node:path'
import { createRequire } from 'node:module'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'
import { COMMON_ASSET_PREFIX } from '../../core/kernel/http-service.ts'
import type { HttpService } from '../../core/kernel/http-service.ts'

export const DASHBOARD_ASSET_PREFIX = '/dashboard/assets/'
export const UPLOT_PREFIX = '/dashboard/vendor/uplot/'

/** the page and its static files hold no node data: they load without the API key even when
 *  requireAuth guards every read (the page then asks for the key and sends it on each call) */
export const DASHBOARD_PAGE_ROUTES: ReadonlySet<string> = new Set(['/', `${DASHBOARD_ASSET_PREFIX}*`, `${UPLOT_PREFIX}*`, `${COMMON_ASSET_PREFIX}*`])

/** uPlot's dist folder (uPlot.esm.js, uPlot.min.css) */
export function uplotDir (): string {
  return path.dirname(createRequire(import.meta.url).resolve('uplot/dist/uPlot.esm.js'))
}

export async function registerDashboardPage (http: HttpService, app: FastifyInstance): Promise<void> {
  await http.registerWebPage(app, { webDir: path.join(import.meta.dirname, 'web'), assetPrefix: DASHBOARD_ASSET_PREFIX, paths: ['/'] })
  await app.register(fastifyStatic, {
    root: uplotDir(),
    prefix: UPLOT_PREFIX,
    decorateReply: false,
    index: false,
    // only the two files the page loads, not the whole dist folder
    allowedPath: (pathName) => pathName === '/uPlot.esm.js' || pathName === '/uPlot.min.css'
  })
}
