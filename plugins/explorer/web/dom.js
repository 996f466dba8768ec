// DOM and formatting helpers. Every value from the API reaches the page as text nodes or
// attributes, never as HTML: names and chat memos are user-controlled.

import { h } from '/common/dom.js'

export { h }

export function short (text, keep = 10) {
  const s = String(text)
  return s.length > keep * 2 + 1 ? `${s.slice(0, keep)}…${s.slice(-6)}` : s
}

const ADDRESS_RE = /^(0x)?([0-9a-f]{32}|[0-9a-f]{40})$/i

/** link to an address page, shown by name when the explorer knows one */
export function addressLink (address, name) {
  if (typeof address !== 'string' || !ADDRESS_RE.test(address)) return h('span', { class: 'muted' }, address)
  return h('a', { href: `#/address/${address}`, class: 'mono addr', title: address }, name ?? short(address))
}

export function txLink (txId, full = false) {
  return h('a', { href: `#/tx/${txId}`, class: 'mono', title: txId }, full ? txId : short(txId))
}

export function blockLink (height) {
  return h('a', { href: `#/block/${height}` }, `#${height}`)
}

export function coin (n) {
  return `${Number(n).toLocaleString('en-US', { maximumFractionDigits: 18 })} coin`
}

export function when (ts) {
  const d = new Date(ts * 1000)
  const iso = d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC')
  const ago = Math.round(Date.now() / 1000 - ts)
  const rel = ago < 0 ? 'in the future' : ago < 60 ? `${ago} s ago` : ago < 3600 ? `${Math.floor(ago / 60)} min ago` : ago < 86400 ? `${Math.floor(ago / 3600)} h ago` : `${Math.floor(ago / 86400)} d ago`
  return h('span', { title: iso }, rel)
}

export function badge (text, cls = '') {
  return h('span', { class: `badge ${cls}`.trim() }, text)
}

export function kindBadge (kind) {
  return badge(kind, `kind-${kind}`)
}

/** a definition list of [label, value, id?] rows */
export function fields (rows) {
  return h('dl', { class: 'fields' }, rows.filter(Boolean).flatMap(([label, value, id]) => [h('dt', {}, label), h('dd', { id }, value)]))
}

export function table (id, headings, rows) {
  return h('table', { id },
    h('thead', {}, h('tr', {}, headings.map((t) => h('th', {}, t)))),
    h('tbody', {}, rows))
}

export function pager (p, onMove) {
  const first = p.total === 0 ? 0 : p.offset + 1
  const last = Math.min(p.total, p.offset + p.limit)
  return h('div', { class: 'pager' },
    h('button', { type: 'button', class: 'newer', disabled: p.offset === 0, onclick: () => onMove(Math.max(0, p.offset - p.limit)) }, '← Newer'),
    h('span', { class: 'muted range' }, `${first}–${last} of ${p.total}`),
    h('button', { type: 'button', class: 'older', disabled: !p.has_more, onclick: () => onMove(p.offset + p.limit) }, 'Older →'))
}
