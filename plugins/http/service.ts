// The `http` service: the server factory, OpenAPI, web pages, guards and the session cookie,
// behind the contract in core/kernel/http-service.ts, so other plugins reach them through the
// container and never import this plugin's files.
import type { HttpService } from '../../core/kernel/http-service.ts'
import { createHttpServer } from './server.ts'
import { publishOpenApi } from './openapi.ts'
import { PAGE_HEADERS, registerWebPage } from './web-page.ts'
import { cameOverHttps, ClientRateLimit, ensureRateLimit, installCrossSiteGuard, installHostCheck } from './guards.ts'
import { sessionCookies } from './session.ts'
import { addressKey } from './connection-caps.ts'
import { chainViewsHttp } from './chain-views/index.ts'

export function createHttpService (): HttpService {
  return {
    createServer: createHttpServer,
    publishOpenApi,
    registerWebPage,
    pageHeaders: PAGE_HEADERS,
    ensureRateLimit,
    clientRateLimit: (app, rule, what) => new ClientRateLimit(app, rule, what),
    installCrossSiteGuard,
    installHostCheck,
    cameOverHttps,
    clientKey: (request) => addressKey(request.ip),
    session: sessionCookies,
    chainViews: chainViewsHttp
  }
}
