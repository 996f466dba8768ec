// docs/protocol.md is where the design labels the code cites resolve inside the repository
// (issue 16 item 7): every label found in core/, plugins/, config/, bin/ and test/ must have a
// row in its "Reference index", and every in-repo link on the page (file and #anchor) must
// lead somewhere. The checks run on synthetic input first, so each is seen to fail.
import t from 'tap'
import path from 'node:path'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'

const ROOT = path.resolve(import.meta.dirname, '..', '..')
const PROTOCOL = path.join(ROOT, 'docs', 'protocol.md')
const CODE_ROOTS = ['core', 'plugins', 'config', 'bin', 'test']
// built from parts so that this file cites no label itself
const KINDS = ['SP' + 'EC', 'DES' + 'IGN']
const LABEL_RE = new RegExp(`\\b(?:${KINDS.join('|')}) [0-9]+(?:\\.[0-9]+)?`, 'g')
const label = (kind: 0 | 1, n: string): string => `${KINDS[kind] as string} ${n}`

/** every regular file below `dir`, node_modules and dot-folders skipped */
function filesBelow (dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) out.push(...filesBelow(full))
    else if (entry.isFile()) out.push(full)
  }
  return out
}

/** The labels cited in `text` (the same pattern as `grep -oE "(SPEC|DESIGN) [0-9]+(\.[0-9]+)?"`). */
function labelsIn (text: string): string[] {
  return text.match(LABEL_RE) ?? []
}

/** label -> a file citing it, over the code roots (binary files skipped) */
function citedLabels (root: string, dirs: readonly string[]): Map<string, string> {
  const cited = new Map<string, string>()
  for (const dir of dirs) {
    const abs = path.join(root, dir)
    if (!existsSync(abs)) continue
    for (const file of filesBelow(abs)) {
      const bytes = readFileSync(file)
      if (bytes.includes(0)) continue
      for (const l of labelsIn(bytes.toString('utf8'))) if (!cited.has(l)) cited.set(l, path.relative(root, file))
    }
  }
  return cited
}

/** Lines outside fenced code blocks, with their fence state dropped. */
function proseLines (markdown: string): string[] {
  const out: string[] = []
  let fenced = false
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) { fenced = !fenced; continue }
    if (!fenced) out.push(line)
  }
  return out
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function headingAnchors (markdown: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const line of proseLines(markdown)) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (m === null) continue
    const text = (m[1] as string).replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '')
    const base = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    anchors.add(n === 0 ? base : `${base}-${n}`)
  }
  return anchors
}

/** The rows of the "Reference index" section: label -> the rest of the row. */
function referenceIndex (markdown: string): Map<string, string> {
  const rows = new Map<string, string>()
  let inside = false
  for (const line of proseLines(markdown)) {
    if (/^##\s+/.test(line)) { inside = /^##\s+Reference index\s*$/.test(line); continue }
    if (!inside) continue
    const cells = line.split('|').map((c) => c.trim())
    if (cells.length < 3) continue
    const first = cells[1] as string
    if (labelsIn(first).length === 1 && labelsIn(first)[0] === first) rows.set(first, cells.slice(2).join(' | '))
  }
  return rows
}

interface Link { target: string; line: number }

/** Markdown links `[text](target)` outside code fences and code spans. */
function linksIn (markdown: string): Link[] {
  const links: Link[] = []
  let fenced = false
  markdown.split('\n').forEach((raw, i) => {
    if (/^\s*(```|~~~)/.test(raw)) { fenced = !fenced; return }
    if (fenced) return
    const line = raw.replace(/`[^`]*`/g, '')
    for (const m of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) links.push({ target: m[1] as string, line: i + 1 })
  })
  return links
}

/** In-repo links of the markdown file `file` that lead to no file, or to no such heading. */
function brokenLinks (file: string): string[] {
  const markdown = readFileSync(file, 'utf8')
  const broken: string[] = []
  for (const { target, line } of linksIn(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue // http:, https:, mailto: — not in the repository
    const hash = target.indexOf('#')
    const filePart = hash === -1 ? target : target.slice(0, hash)
    const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1))
    const dest = filePart === '' ? file : path.resolve(path.dirname(file), decodeURIComponent(filePart))
    if (!existsSync(dest)) { broken.push(`line ${line}: ${target} (no file ${path.relative(ROOT, dest)})`); continue }
    if (anchor === null) continue
    if (!dest.endsWith('.md') || statSync(dest).isDirectory()) { broken.push(`line ${line}: ${target} (an anchor into a file that is not markdown)`); continue }
    if (!headingAnchors(readFileSync(dest, 'utf8')).has(anchor)) broken.push(`line ${line}: ${target} (no heading #${anchor} in ${path.relative(ROOT, dest)})`)
  }
  return broken
}

// ---- the checks, on synthetic input: each must be able to fail

t.test('headingAnchors follows GitHub: punctuation dropped, repeats numbered, fences ignored', async (t) => {
  const md = ['# Event stream (SSE)', '## REST contract (x 4.6), on the port', '## Limits', '## Limits', '```', '# not a heading', '```', '### `code` and [link](a.md)'].join('\n')
  t.same([...headingAnchors(md)].sort(), ['code-and-link', 'event-stream-sse', 'limits', 'limits-1', 'rest-contract-x-46-on-the-port'])
})

t.test('referenceIndex reads only the rows of its own section', async (t) => {
  const md = [
    '## Before', `| ${label(0, '7')} | elsewhere | [x](#before) |`,
    '## Reference index', '| label | what | where |', '|---|---|---|',
    `| ${label(0, '2.2')} | dashboard | [Dashboard](#dashboard) |`, `| ${label(1, '3')} | chain rules | [Money](#money) |`,
    '## After', `| ${label(1, '4')} | later | — |`
  ].join('\n')
  t.same([...referenceIndex(md).keys()], [label(0, '2.2'), label(1, '3')])
})

t.test('a cited label missing from the index is reported', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'protocol-refs-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(path.join(dir, 'a.ts'), `// ${label(0, '2.2')} and ${label(1, '5')}, also ${label(0, '4.6')}s\n`)
  const cited = citedLabels(dir, ['.'])
  t.same([...cited.keys()].sort(), [label(0, '2.2'), label(0, '4.6'), label(1, '5')].sort())
  const index = referenceIndex(`## Reference index\n| ${label(0, '2.2')} | x | [y](#y) |\n`)
  t.same([...cited.keys()].filter((l) => !index.has(l)).sort(), [label(0, '4.6'), label(1, '5')].sort())
})

t.test('links to a missing file or a missing heading are reported; external ones are not', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'protocol-refs-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(path.join(dir, 'other.md'), '# Other page\n## The VM\n')
  writeFileSync(path.join(dir, 'page.md'), [
    '# Page', '## Money',
    '[ok](#money) [ok](other.md) [ok](other.md#the-vm) [ext](https://example.org/x#y)',
    '[gone](missing.md) [no anchor](#nothing) [no anchor](other.md#the-cpu)',
    '`[in code](nowhere.md)`'
  ].join('\n'))
  const broken = brokenLinks(path.join(dir, 'page.md'))
  t.equal(broken.length, 3, broken.join('\n'))
  t.match(broken[0], /missing\.md/)
  t.match(broken[1], /#nothing/)
  t.match(broken[2], /other\.md#the-cpu/)
})

// ---- the repository

t.test('every label the code cites has a row in the reference index of docs/protocol.md', async (t) => {
  const cited = citedLabels(ROOT, CODE_ROOTS)
  t.ok(cited.size >= 10, `found ${cited.size} cited labels; the scan itself must be working`)
  const index = referenceIndex(readFileSync(PROTOCOL, 'utf8'))
  const missing = [...cited].filter(([l]) => !index.has(l)).map(([l, file]) => `${l} (cited in ${file})`)
  t.same(missing, [], 'add a row to "## Reference index" of docs/protocol.md for each')
})

t.test('every row of the reference index points somewhere', async (t) => {
  const index = referenceIndex(readFileSync(PROTOCOL, 'utf8'))
  for (const [l, rest] of index) t.match(rest, /\]\([^)]+\)/, `${l} links to the section that states it`)
})

t.test('every in-repo link of docs/protocol.md leads to an existing file and heading', async (t) => {
  const links = linksIn(readFileSync(PROTOCOL, 'utf8'))
  t.ok(links.length > 20, 'the page links its sections')
  t.same(brokenLinks(PROTOCOL), [])
})

t.test('docs/architecture.md links the deviations from DESIGN.md, and that page links only what exists', async (t) => {
  const architecture = path.join(ROOT, 'docs', 'architecture.md')
  const deviations = path.join(ROOT, 'docs', 'deviations.md')
  t.ok(linksIn(readFileSync(architecture, 'utf8')).some((l) => l.target === 'deviations.md'), 'architecture.md links deviations.md')
  t.same(brokenLinks(architecture), [])
  t.ok(linksIn(readFileSync(deviations, 'utf8')).length >= 5, 'each deviation links where its rule is written')
  t.same(brokenLinks(deviations), [])
})
