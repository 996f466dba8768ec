// Explorer page: a hash router over the views, search, and live updates by polling the
// public stats endpoint (the event stream needs a session; this page is public).
import { h, coin } from './dom.js'
import { api, NotFound, blocksView, blockView, txView, addressView, mempoolView } from './views.js'

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
  if (what === 'mempool') return [mempoolView, { offset: n(arg) }, true]
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

/** where a search leads, decided by the node (GET /api/explorer/search): heights, block
 *  hashes, transaction ids or a unique prefix of 8+ hex (the chat shows 16), addresses and
 *  user names */
async function searchTarget (q) {
  const res = await fetch(`/api/explorer/search?q=${encodeURIComponent(q.trim())}`, { headers: { accept: 'application/json' } })
  let body = null
  try { body = await res.json() } catch { /* not JSON */ }
  if (!res.ok) return { error: body?.error ?? `HTTP ${res.status}` }
  if (body.type === 'block') return { hash: `#/block/${body.height}` }
  if (body.type === 'tx') return { hash: `#/tx/${body.tx_id}` }
  return { hash: `#/address/${body.address}` }
}

document.getElementById('search-form').addEventListener('submit', async (e) => {
  e.preventDefault()
  const input = document.getElementById('search-input')
  const q = input.value
  if (q.trim() === '') return
  let target
  try {
    target = await searchTarget(q)
  } catch (err) {
    target = { error: `the node did not answer (${err.message})` }
  }
  if (target.error !== undefined) {
    searchError.textContent = `Nothing matches "${q.trim()}": ${target.error}.`
    searchError.hidden = false
    return
  }
  searchError.hidden = true
  input.value = ''
  nav(target.hash)
})

function showStats (s) {
  document.getElementById('stat-height').textContent = String(s.height)
  document.getElementById('stat-supply').textContent = `${coin(s.total_supply)} / ${s.max_supply.toLocaleString('en-US')}`
  document.getElementById('stat-mempool').textContent = String(s.mempool_size)
  document.getElementById('stat-difficulty').textContent = String(s.difficulty)
  document.getElementById('stat-target').textContent = `${s.block_time_target} s`
  document.getElementById('stat-network').textContent = s.network ?? (s.testnet ? 'testnet' : 'mainnet')
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
