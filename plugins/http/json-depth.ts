// A JSON body nested 200,000 deep parsed fine and then overflowed the stack in whatever walked
// it first (the transaction size check): HTTP 500 (issue 31, "Small ones"). Depth is bounded
// on the raw text before JSON.parse sees it, for every JSON route of every server.
import type { FastifyInstance } from 'fastify'
import { HttpError } from '../../core/kernel/errors.ts'

const OPEN_BRACE = 0x7b
const OPEN_BRACKET = 0x5b
const CLOSE_BRACE = 0x7d
const CLOSE_BRACKET = 0x5d
const QUOTE = 0x22
const BACKSLASH = 0x5c

/** whether arrays and objects in `text` nest deeper than `max` (strings skipped; one pass, no allocation) */
export function nestsDeeperThan (text: string, max: number): boolean {
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === QUOTE) {
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i)
        if (s === BACKSLASH) i++
        else if (s === QUOTE) break
      }
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--
    }
  }
  return false
}

/** replaces fastify's JSON parser with the same parser behind the depth check */
export function installJsonDepthLimit (app: FastifyInstance, maxDepth: number): void {
  // fastify's defaults: a __proto__ or constructor.prototype key is refused
  const parse = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string // parseAs: 'string'
    if (nestsDeeperThan(text, maxDepth)) {
      done(new HttpError(400, `request body nests deeper than ${maxDepth} levels of arrays and objects`), undefined)
      return
    }
    parse(request, text, done)
  })
}
