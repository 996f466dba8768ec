// Explorer page: a hash router over the views, search, and live updates by polling the
// public stats endpoint (the event stream needs a session; this page is public).
import { h, coin } from './dom.js'
import { api, NotFound, blocksView, blockView, txView, addressView } from './views.js'

const POLL_MS = 2000
const view = document.getElementById('view')
const searchError = document.getElementById('search-error')
const live = document.getElementById('live-state')

let current = { live: false, heights: undefined, failed: false }
let renderSeq = 0
let lastHeight = null

function nav (hash) {
  if (location.hash === hash) render()
  else location.hash = hash
}

/** hash -> [view, params, live]: live views re-render when the tip moves */
function route (hash) {
  const parts = hash.replace(/^#\/?/, '').split('/').filter((p) => p.length > 0).map(decodeURIComponent)
  const [what, arg, extra] = parts
  const n = (s) => Math.max(0, Number.parseInt(s ?? '0', 10) || 0)
  if (what === undefined) return [blocksView, { offset: 0 }, true]
  if (what === 'blocks') return [blocksView, { offset: n(arg) }, n(arg) === 0]
  if (what === 'block' && arg !== undefined) return [blockView, { height: arg }, false]
  if (what === 'tx' && arg !== undefined) return [txView, { txId: arg }, true]
  if (what === 'address' && arg !== undefined) return [addressView, { address: arg, offset: n(extra) }, n(extra) === 0]
  return null
}

function message (text, cls) {
  return h('section', { class: `panel ${cls}`, id: 'view-message' }, h('p', {}, text))
}

async function render ({ quiet = false } = {}) {
  const seq = ++renderSeq
  const r = route(location.hash)
  if (r === null) {
    view.replaceChildren(message('Unknown page.', 'error'))
    current = { live: false, failed: true }
    return
  }
  const [fn, params, isLive] = r
  if (!quiet) view.setAttribute('aria-busy', 'true')
  try {
    const node = await fn(params, nav, quiet ? current.heights : undefined)
    if (seq !== renderSeq) return
    view.replaceChildren(node)
    current = { live: isLive, heights: node.heights, failed: false }
  } catch (err) {
    if (seq !== renderSeq) return
    const notFound = err instanceof NotFound
    view.replaceChildren(message(notFound ? `Not found: ${err.message}` : `Could not load: ${err.message}`, notFound ? 'not-found' : 'error'))
    current = { live: false, failed: true }
  } finally {
    if (seq === renderSeq) view.removeAttribute('aria-busy')
  }
}

/** SPEC 4.1 search rule, done in the page: integer -> block, 64 hex -> tx, address -> address */
function searchTarget (q) {
  const text = q.trim()
  if (/^\d{1,16}$/.test(text)) return `#/block/${Number(text)}`
  if (/^(0x)?[0-9a-f]{64}$/i.test(text)) return `#/tx/${text.replace(/^0x/i, '').toLowerCase()}`
  if (/^(0x)?([0-9a-f]{32}|[0-9a-f]{40})$/i.test(text)) return `#/address/${text}`
  return null
}

document.getElementById('search-form').addEventListener('submit', (e) => {
  e.preventDefault()
  const input = document.getElementById('search-input')
  const q = input.value
  if (q.trim() === '') return
  const target = searchTarget(q)
  if (target === null) {
    searchError.textContent = `Nothing matches "${q.trim()}": enter a block height, a 64-hex transaction id or a 32/40-hex address.`
    searchError.hidden = false
    return
  }
  searchError.hidden = true
  input.value = ''
  nav(target)
})

function showStats (s) {
  document.getElementById('stat-height').textContent = String(s.height)
  document.getElementById('stat-supply').textContent = `${coin(s.total_supply)} / ${s.max_supply.toLocaleString('en-US')}`
  document.getElementById('stat-mempool').textContent = String(s.mempool_size)
  document.getElementById('stat-difficulty').textContent = String(s.difficulty)
  document.getElementById('stat-target').textContent = `${s.block_time_target} s`
  document.getElementById('stat-network').textContent = s.network
}

async function poll () {
  try {
    const s = await api('/api/explorer/stats')
    showStats(s)
    live.dataset.state = 'live'
    live.textContent = 'live'
    const moved = lastHeight !== null && s.height !== lastHeight
    lastHeight = s.height
    // a new tip changes lists, confirmations and balances, and may create what was not found
    if (moved && (current.live || current.failed)) await render({ quiet: true })
  } catch {
    live.dataset.state = 'offline'
    live.textContent = 'offline'
  } finally {
    setTimeout(poll, POLL_MS)
  }
}

window.addEventListener('hashchange', () => { searchError.hidden = true; render() })
render()
poll()
