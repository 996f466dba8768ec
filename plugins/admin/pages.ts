// The admin UI at /admin and its assets under /admin/assets/, behind the same Basic auth as
// the API, so the browser prompts for the credentials.
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { registerWebPage } from '../../core/web-page.ts'

export async function registerAdminPage (app: FastifyInstance): Promise<void> {
  await registerWebPage(app, { webDir: path.join(import.meta.dirname, 'web'), assetPrefix: '/admin/assets/', paths: ['/admin', '/admin/'] })
}
