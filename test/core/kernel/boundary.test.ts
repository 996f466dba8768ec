// The kernel names no plugin and reaches no plugin, tool or bench (issue 29): the built-in
// plugins' names appear in no string of core/kernel outside comments, and the static import
// graph from every core/kernel module (dynamic `import('literal')` included) stays out of
// plugins/, tools/, bench/ and testbed/. Plugins and tools are found by listing their folders.
import t from 'tap'
import path from 'node:path'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { withoutComments } from '../../helpers/source.ts'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
const KERNEL = path.join(ROOT, 'core', 'kernel')
const OUTSIDE = ['plugins', 'tools', 'bench', 'testbed'].map((d) => path.join(ROOT, d) + path.sep)

function tsFiles (dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile() && d.name.endsWith('.ts'))
    .map((d) => path.join(d.parentPath, d.name))
}

const builtins = readdirSync(path.join(ROOT, 'plugins'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(path.join(ROOT, 'plugins', d.name, 'manifest.ts')))
  .map((d) => d.name)

t.test('withoutComments keeps strings and drops comments', async (t) => {
  t.equal(withoutComments("a // 'miner'\nb /* 'p2p' */ c 'x // y'"), "a \nb  c 'x // y'")
})

/** the container's service names (`interface Services`): `'miner'` is a service the kernel may
 *  name (HOOK_OWNERS: who provides it fires blockMined) though a built-in plugin has the same name */
function serviceNames (): Set<string> {
  const src = readFileSync(path.join(KERNEL, 'services.ts'), 'utf8')
  const body = src.slice(src.indexOf('export interface Services {'))
  return new Set([...body.slice(0, body.indexOf('\n}')).matchAll(/^ {2}(\w+):/gm)].map((m) => m[1] as string))
}

t.test('no built-in plugin name in a string of core/kernel', async (t) => {
  t.ok(builtins.length >= 10, 'the built-ins are listed')
  const services = serviceNames()
  t.ok(services.has('chain') && services.has('miner'), 'the service names are read')
  const hits: string[] = []
  for (const file of tsFiles(KERNEL)) {
    const code = withoutComments(readFileSync(file, 'utf8'))
    for (const name of builtins.filter((b) => !services.has(b))) {
      const quoted = new RegExp(`['"\`]${name.replace(/[-]/g, '\\-')}['"\`]`)
      if (quoted.test(code)) hits.push(`${path.relative(ROOT, file)}: '${name}'`)
    }
  }
  t.same(hits, [])
})

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\1/g

t.test('the import graph of core/kernel reaches no plugin, tool or bench', async (t) => {
  const seen = new Set<string>()
  const bad: string[] = []
  const visit = (file: string, from: string): void => {
    if (seen.has(file)) return
    seen.add(file)
    if (OUTSIDE.some((d) => file.startsWith(d))) { bad.push(`${path.relative(ROOT, from)} -> ${path.relative(ROOT, file)}`); return }
    if (!file.endsWith('.ts') || !existsSync(file)) return
    const code = withoutComments(readFileSync(file, 'utf8'))
    for (const m of code.matchAll(IMPORT)) visit(path.resolve(path.dirname(file), m[2] as string), file)
  }
  for (const file of tsFiles(KERNEL)) visit(file, file)
  t.ok(seen.size > 20, `walked ${seen.size} modules`)
  t.same(bad, [])
})
