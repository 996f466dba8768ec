// The admin UI at /admin and its assets under /admin/assets/, behind the same Basic auth as
// the API, so the browser prompts for the credentials.
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { HttpService } from '../../core/kernel/http-service.ts'

export async function registerAdminPage (http: HttpService, app: FastifyInstance): Promise<void> {
  await http.registerWebPage(app, { webDir: path.join(import.meta.dirname, 'web'), assetPrefix: '/admin/assets/', paths: ['/admin', '/admin/'] })
}
