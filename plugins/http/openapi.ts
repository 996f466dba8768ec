// OpenAPI publication (@fastify/swagger + swagger-ui at /docs) for any server built with
// plugins/http/server.ts. Must be awaited before routes are added so every route is captured.
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'

export async function publishOpenApi (app: FastifyInstance, info: { title: string; description: string; version: string }): Promise<void> {
  await app.register(swagger, { openapi: { info } })
  await app.register(swaggerUi, { routePrefix: '/docs' })
}
