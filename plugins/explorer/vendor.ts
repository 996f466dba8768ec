// The two hashing/curve libraries the node itself verifies attestations with, served to the
// explorer page as static ES modules, so the page re-verifies a block's attestation in the
// browser with the same code (docs/explorer.md). Served from node_modules as installed; the
// only change is the bare '@noble/hashes/' specifier rewritten to its served path (the page's
// CSP, script-src 'self', rules out an inline import map).
import path from 'node:path'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { HttpError } from '../../core/kernel/errors.ts'

export const VENDOR_PREFIX = '/explorer/vendor/'

// each package's root, found through a module it exports at its top level
const rootOf = (specifier: string): string => path.dirname(fileURLToPath(import.meta.resolve(specifier)))
const PACKAGES: Record<string, string> = {
  'noble-curves': rootOf('@noble/curves/bls12-381.js'),
  'noble-hashes': rootOf('@noble/hashes/sha3.js')
}
const FILE_RE = /^(?:[a-z0-9_-]+\/){0,2}[a-z0-9_.-]+\.js$/

export function registerVendorModules (app: FastifyInstance): void {
  const cache = new Map<string, string>()
  app.get(`${VENDOR_PREFIX}:pkg/*`, { schema: { hide: true } }, async (request, reply) => {
    const { pkg, '*': file } = request.params as { pkg: string; '*': string }
    const root = PACKAGES[pkg]
    if (root === undefined || !FILE_RE.test(file) || file.includes('..')) throw new HttpError(404, 'no such module')
    const key = `${pkg}/${file}`
    let text = cache.get(key)
    if (text === undefined) {
      try {
        text = (await readFile(path.join(root, file), 'utf8')).replace(/(from\s*|import\s*\(?\s*)(['"])@noble\/hashes\//g, `$1$2${VENDOR_PREFIX}noble-hashes/`)
      } catch {
        throw new HttpError(404, 'no such module')
      }
      cache.set(key, text)
    }
    return await reply.headers({ 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' }).send(text)
  })
}
