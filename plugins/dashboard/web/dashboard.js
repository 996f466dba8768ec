// The operator's dashboard page: tiles, uPlot charts, peers, recent events, recent blocks,
// search and the pre-signed transaction form, all from this node's dashboard API, polled every 2 s. When the
// node asks for the API key (requireAuth, or a submit), it is asked once and kept in this
// tab's sessionStorage. Every API value reaches the page as text, never as HTML.
import uPlot from '/dashboard/vendor/uplot/uPlot.esm.js'
import { h } from '/common/dom.js'
import { ENTROPY_EVIDENCE, evidenceBadge } from '/common/entropy-evidence.js'

const $ = (id) => document.getElementById(id)
const POLL_MS = 2000
const HISTORY_MS = 5000
const CHART_BLOCKS = 300
const KEY_ITEM = 'ledger-dashboard-api-key'
const EVENTS_SHOWN = 50

const state = { key: sessionStorage.getItem(KEY_ITEM), blocks: new Map(), charts: {}, polling: false, events: [], lastEventId: 0, historyAt: 0, historyHeight: -1 }

class ApiError extends Error {
  constructor (status, body) {
    super(body?.reason ?? body?.error ?? `HTTP ${status}`)
    this.status = status
    this.body = body
  }
}

async function api (method, url, body) {
  const headers = { accept: 'application/json' }
  if (state.key !== null) headers.authorization = `Bearer ${state.key}`
  if (body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(url, { method, headers, body })
  let data = null
  try { data = await res.json() } catch { data = null }
  if (res.status === 401) askForKey(state.key === null ? 'This node needs its API key.' : 'The API key was refused; enter it again.')
  if (!res.ok) throw new ApiError(res.status, data)
  return { data, res }
}

function askForKey (why) {
  $('key-form').hidden = false
  notice(why)
}

function notice (text) {
  $('notice').textContent = text
  $('notice').hidden = text === ''
}

// ---- formatting

const num = (n) => Number(n).toLocaleString('en-US')
const short = (s, n = 12) => (typeof s === 'string' && s.length > n ? `${s.slice(0, n)}…` : String(s ?? ''))
const ago = (ts) => {
  if (typeof ts !== 'number') return ''
  const s = Math.max(0, Math.round(Date.now() / 1000 - ts))
  return s < 60 ? `${s}s ago` : s < 3600 ? `${Math.floor(s / 60)}m ago` : `${Math.floor(s / 3600)}h ago`
}
function hashRate (h) {
  const units = ['H/s', 'kH/s', 'MH/s', 'GH/s']
  let v = h
  let u = 0
  while (v >= 1000 && u < units.length - 1) { v /= 1000; u++ }
  return `${v.toFixed(u === 0 ? 0 : 1)} ${units[u]}`
}
const set = (id, text) => { $(id).textContent = text }

// ---- charts

// Axis labels are at most ~6 characters (1.2k, 3.4M) and each y axis is as wide as the widest
// label it draws, measured in its own font: nothing is clipped, whatever the values.
const AXIS_FONT = '12px system-ui, sans-serif'
const TICK_AND_GAP = 10 + 5 + 4
const measure = document.createElement('canvas').getContext('2d')
measure.font = AXIS_FONT
const trim = (x) => String(Number(x.toFixed(Math.abs(x) >= 100 ? 0 : Math.abs(x) >= 10 ? 1 : 2)))
function compact (v) {
  if (v === null || v === undefined) return ''
  const a = Math.abs(v)
  if (a >= 1e9) return `${trim(v / 1e9)}G`
  if (a >= 1e6) return `${trim(v / 1e6)}M`
  if (a >= 1e4) return `${trim(v / 1e3)}k`
  return trim(v)
}
const labelWidth = (text) => measure.measureText(text).width

const yAxis = {
  font: AXIS_FONT,
  values: (u, splits) => splits.map(compact),
  size: (u, values) => values === null || values === undefined ? 40 : Math.ceil(Math.max(20, ...values.map(labelWidth))) + TICK_AND_GAP
}

/** the y domain from the points themselves: 0 up to a little above the largest, never below the smallest */
function yRange (u, min, max) {
  if (min === null || max === null) return [0, 1]
  const lo = Math.min(0, min)
  const hi = max > lo ? max + (max - lo) * 0.08 : lo + 1
  return [lo, hi]
}

function chart (id, label, color, { time = false } = {}) {
  const el = $(id)
  const u = new uPlot({
    width: el.clientWidth || 300,
    height: 180,
    legend: { show: false },
    scales: { x: { time }, y: { range: yRange } },
    series: [{ label: time ? 'time' : 'height' }, { label, stroke: color, width: 1.5, points: { show: false } }],
    axes: [time ? { font: AXIS_FONT } : { font: AXIS_FONT, values: (u, splits) => splits.map(compact) }, yAxis]
  }, [[], []], el)
  // the chart follows its box: the grid decides the width, never the chart
  new ResizeObserver(() => { if (el.clientWidth > 0 && el.clientWidth !== u.width) u.setSize({ width: el.clientWidth, height: 180 }) }).observe(el)
  return u
}

/** block intervals by height, never the genesis gap (block 1's parent time is the chain's birth, not a mining interval) */
function drawBlockCharts () {
  const heights = [...state.blocks.keys()].sort((a, b) => a - b).slice(-CHART_BLOCKS)
  const xs = []
  const intervals = []
  const dx = []
  const diffs = []
  for (const height of heights) {
    const b = state.blocks.get(height)
    dx.push(height)
    diffs.push(b.difficulty)
    const prev = state.blocks.get(height - 1)
    if (prev === undefined || prev.height === 0) continue
    xs.push(height)
    intervals.push(b.timestamp - prev.timestamp)
  }
  state.charts.interval.setData([xs, intervals])
  state.charts.difficulty.setData([dx, diffs])
}

/** what the node sampled since it started, and when it connected each block */
function drawHistoryCharts (history) {
  const s = history.samples
  const t = s.map((x) => x.at)
  state.charts.hashrate.setData([t, s.map((x) => x.hash_rate)])
  state.charts.mempool.setData([t, s.map((x) => x.mempool_size)])
  state.charts.peers.setData([t, s.map((x) => x.peer_count)])
  const live = history.blocks.filter((b) => !b.syncing)
  state.charts.lag.setData([live.map((b) => b.height), live.map((b) => b.lag_seconds)])
}

// ---- rendering

function renderBlocks (blocks) {
  $('blocks').replaceChildren(...blocks.slice(0, 15).map((b) => h('tr', { dataset: { height: b.height } },
    h('td', {}, h('a', { href: '#', onclick: (ev) => { ev.preventDefault(); search(String(b.height)) } }, num(b.height))),
    h('td', { class: 'hash', title: b.hash }, short(b.hash, 16)),
    h('td', { title: new Date(b.timestamp * 1000).toISOString() }, ago(b.timestamp)),
    h('td', {}, b.tx_count),
    h('td', { class: 'hash', title: b.miner }, short(b.miner)),
    h('td', {}, b.difficulty),
    h('td', {}, evidenceCell(b.entropy_evidence)))))
}

function evidenceCell (code) {
  const e = evidenceBadge(code)
  // green only for beacon evidence; genesis and unrecorded blocks are plain, weaker evidence amber
  const cls = code === 'beacon-verified' ? 'ok' : code === 'genesis' || code === null ? 'muted-evidence' : 'weak'
  return h('span', { class: cls, title: e.proves, dataset: { evidence: code ?? 'unrecorded' } }, e.label)
}

function renderPeers (p) {
  set('peer-count', String(p.peer_count))
  const rows = p.peers.map((x) => h('tr', {},
    h('td', { class: 'hash', title: x.peer_id }, short(x.peer_id, 16)),
    h('td', {}, x.address), h('td', {}, x.direction === 'inbound' ? 'them' : x.direction === 'outbound' ? 'us' : '–'),
    h('td', {}, x.version), h('td', {}, num(x.best_height)), h('td', {}, ago(x.connected_at))))
  $('peers').replaceChildren(...(rows.length > 0 ? rows : [h('tr', {}, h('td', { colspan: 6, class: 'muted' }, 'No peers connected.'))]))
}

const EVENT_TITLES = {
  node_started: 'node started',
  node_stopping: 'node stopping',
  block_rejected: 'block rejected',
  block_mined: 'block mined',
  reorg: 'reorg',
  peer_connected: 'peer connected',
  peer_disconnected: 'peer disconnected',
  tx_dropped: 'transaction dropped',
  entropy_status: 'entropy provider'
}

function eventDetails (e) {
  switch (e.type) {
    case 'block_rejected': return `${short(e.hash, 16)} from ${e.origin}: ${e.code} ${e.reason}`
    case 'block_mined': return `height ${num(e.height)} · ${short(e.hash, 16)} · ${e.tx_count} txs · difficulty ${e.difficulty}`
    case 'reorg': return `${num(e.from.height)} → ${num(e.to.height)} from fork at ${num(e.fork_point.height)} (${e.disconnected} out, ${e.connected} in)`
    case 'peer_connected':
    case 'peer_disconnected': return `${short(e.peer_id, 16)} ${e.address}`
    case 'tx_dropped': return `${short(e.tx_id, 16)} of ${short(e.sender)}: ${e.reason}`
    case 'entropy_status': return e.reachable ? `reachable · ${e.source ?? ''} · ${evidenceBadge(e.evidence ?? null).label}` : `unreachable · ${e.reason ?? ''}`
    default: return ''
  }
}

/** newest first; the page keeps the last EVENTS_SHOWN it was sent */
function renderEvents (fresh) {
  state.events = [...fresh.reverse(), ...state.events].slice(0, EVENTS_SHOWN)
  const rows = state.events.map((e) => h('tr', { class: `event ${e.type}`, dataset: { type: e.type } },
    h('td', { title: new Date(e.at * 1000).toISOString() }, new Date(e.at * 1000).toLocaleTimeString()),
    h('td', {}, EVENT_TITLES[e.type] ?? e.type),
    h('td', { class: 'details' }, eventDetails(e))))
  $('events').replaceChildren(...(rows.length > 0 ? rows : [h('tr', {}, h('td', { colspan: 3, class: 'muted' }, 'Nothing yet.'))]))
}

async function refreshEvents () {
  const { data } = await api('GET', `/api/events?after=${state.lastEventId}&limit=${EVENTS_SHOWN}`)
  // ids start at the node's boot time: a restarted node's ids are all higher, so after= still works
  if (data.events.length > 0) state.lastEventId = data.events[data.events.length - 1].id
  renderEvents(data.events)
}

/** every field the provider reports, so fields added later show up without a page change */
function renderEntropy (q) {
  const rows = []
  for (const [k, v] of Object.entries(q)) {
    if (k === 'beacons' && Array.isArray(v)) {
      // one line per trusted beacon; the full key is in the title and in /api/qrng
      const items = v.map((b) => h('li', { title: b.public_key }, `${b.id} · ${b.scheme} · every ${b.period}s · key ${short(b.public_key, 16)}`))
      rows.push(h('tr', {}, h('th', {}, k), h('td', {}, items.length === 0 ? 'none trusted' : h('ul', { class: 'beacons' }, ...items))))
    } else if (k === 'evidence') {
      rows.push(h('tr', {}, h('th', {}, k), h('td', {}, v === null ? 'serving nothing' : evidenceCell(v))))
    } else if (v !== null && typeof v === 'object') {
      rows.push(h('tr', {}, h('th', {}, k), h('td', {}, h('pre', {}, JSON.stringify(v, null, 2)))))
    } else {
      rows.push(h('tr', {}, h('th', {}, k), h('td', {}, k.endsWith('_at') && typeof v === 'number' ? `${new Date(v * 1000).toISOString()} (${ago(v)})` : String(v))))
    }
  }
  $('entropy').replaceChildren(...rows)
}

async function refresh () {
  const [status, chain, mining, mempool, fee, qrng, peers, node] = await Promise.all([
    api('GET', '/api/status'), api('GET', '/api/chain'), api('GET', '/api/mining'), api('GET', '/api/mempool'),
    api('GET', '/api/fee'), api('GET', '/api/qrng'), api('GET', '/api/peers'), api('GET', '/api/node')
  ]).then((all) => all.map((r) => r.data))
  set('network', `· ${chain.network}`)
  set('t-height', num(chain.height))
  set('t-tip', `tip ${ago(chain.tip_timestamp)}`)
  set('t-peers', String(status.peer_count))
  set('t-sync', syncText(status.sync_state, chain.height, peers.peers))
  set('t-mining', mining.running ? 'on' : mining.enabled ? 'halted' : 'off')
  set('t-mined', mining.halted_reason ?? `${num(mining.blocks_mined)} blocks mined`)
  set('t-hashrate', mining.running ? hashRate(mining.hash_rate) : '–')
  set('t-source', mining.qrng_source)
  set('t-difficulty', String(chain.difficulty))
  set('t-target', `target ${chain.block_time_target}s`)
  set('t-mempool', num(mempool.pending_count))
  set('t-fee', `fee low ${fee.low_fee} · med ${fee.medium_fee} · high ${fee.high_fee}`)
  // what is served and what backs it, in the one vocabulary (docs/entropy.md)
  set('t-entropy', qrng.reachable ? (qrng.evidence === null ? 'ok' : ENTROPY_EVIDENCE[qrng.evidence]?.label ?? qrng.evidence) : 'down')
  $('t-entropy').className = `value ${qrng.reachable && qrng.evidence === 'beacon-verified' ? 'ok' : qrng.reachable ? 'weak' : 'bad'}`
  set('t-pool', `${num(qrng.pool_available_bytes)} bytes · ${qrng.source ?? qrng.reason ?? ''}`)
  set('t-supply', num(chain.total_supply))
  set('t-uptime', `up ${Math.round(node.uptime_seconds)}s · ${node.version}`)
  renderPeers(peers)
  renderEntropy(qrng)
  // the node samples every few seconds: the history is read again when that much time passed or a block came
  if (Date.now() - state.historyAt >= HISTORY_MS || chain.height !== state.historyHeight) {
    drawHistoryCharts((await api('GET', '/api/history')).data)
    state.historyAt = Date.now()
    state.historyHeight = chain.height
  }
  await refreshEvents()
  await refreshBlocks(chain.height)
}

function syncText (sync, height, peers) {
  const best = peers.reduce((m, p) => Math.max(m, p.best_height), 0)
  if (sync === 'syncing' && best > 0) return `syncing ${Math.floor((height / best) * 100)}% (${num(height)}/${num(best)})`
  return sync
}

/** the newest blocks, and on first load enough history for the charts */
async function refreshBlocks (height) {
  const have = state.blocks.size
  const pages = have === 0 ? Math.ceil(Math.min(CHART_BLOCKS + 1, height + 1) / 100) : 1
  let newest = []
  for (let p = 0; p < pages; p++) {
    const { data } = await api('GET', `/api/blocks?offset=${p * 100}&limit=100`)
    if (p === 0) newest = data.blocks
    for (const b of data.blocks) state.blocks.set(b.height, b)
  }
  // drop blocks a reorg replaced or that fell out of the window
  for (const hgt of state.blocks.keys()) if (hgt > height || hgt < height - CHART_BLOCKS - 1) state.blocks.delete(hgt)
  renderBlocks(newest)
  drawBlockCharts()
}

async function poll () {
  if (state.polling) return
  state.polling = true
  try {
    await refresh()
    set('live', `live · updated ${new Date().toLocaleTimeString()}`)
    $('live').classList.remove('down')
    if ($('key-form').hidden) notice('')
  } catch (err) {
    set('live', 'node unreachable')
    $('live').classList.add('down')
    if (!(err instanceof ApiError && err.status === 401)) notice(err.message)
  } finally {
    state.polling = false
  }
}

// ---- search and submit

async function search (q) {
  try {
    const { data, res } = await api('GET', `/api/search?q=${encodeURIComponent(q)}`)
    const type = res.headers.get('x-result-type') ?? 'result'
    set('search-type', type)
    $('search-summary').replaceChildren(summaryOf(type, data))
    set('search-json', JSON.stringify(data, null, 2))
  } catch (err) {
    set('search-type', 'nothing found')
    $('search-summary').replaceChildren(h('p', { class: 'bad' }, err.message))
    set('search-json', '')
  }
  $('search-result').hidden = false
}

function summaryOf (type, d) {
  if (type === 'block') return h('p', {}, `block ${num(d.height)} · ${d.tx_count ?? d.transactions?.length ?? 0} txs · difficulty ${d.difficulty} · ${ago(d.timestamp)}`)
  if (type === 'tx') return h('p', {}, `${d.kind} · ${d.amount} coin · ${d.status}${d.block_height !== undefined ? ` in block ${d.block_height}` : ''} · ${d.confirmations} confirmations`)
  if (type === 'address') return h('p', {}, `${d.name ?? 'address'} · balance ${d.balance} · ${d.tx_count} transactions`)
  return h('p', {}, type)
}

$('search-form').addEventListener('submit', (ev) => { ev.preventDefault(); search($('search').value.trim()) })
$('search-close').addEventListener('click', () => { $('search-result').hidden = true })

$('key-form').addEventListener('submit', (ev) => {
  ev.preventDefault()
  state.key = $('key').value.trim()
  sessionStorage.setItem(KEY_ITEM, state.key)
  $('key').value = ''
  $('key-form').hidden = true
  notice('')
  poll()
})

$('submit-form').addEventListener('submit', async (ev) => {
  ev.preventDefault()
  const out = $('submit-result')
  out.className = ''
  let body
  try { body = JSON.stringify(JSON.parse($('submit-body').value)) } catch (err) {
    out.className = 'bad'
    out.textContent = `not JSON: ${err.message}`
    return
  }
  if (state.key === null) {
    askForKey('Submitting needs the API key (the node writes it to <data dir>/api_key.json).')
    out.className = 'bad'
    out.textContent = 'enter the API key, then submit again'
    return
  }
  try {
    const { data } = await api('POST', '/api/tx/submit', body)
    out.className = 'ok'
    out.textContent = `accepted: ${data.tx_id}`
  } catch (err) {
    out.className = 'bad'
    out.textContent = `rejected: ${err.message}`
  }
})

state.charts = {
  interval: chart('c-interval', 'interval s', '#3b6fd8'),
  lag: chart('c-lag', 'lag s', '#c2410c'),
  hashrate: chart('c-hashrate', 'H/s', '#1b7f3b', { time: true }),
  mempool: chart('c-mempool', 'pending', '#8a3bd8', { time: true }),
  peers: chart('c-peers', 'peers', '#0e7490', { time: true }),
  difficulty: chart('c-difficulty', 'difficulty', '#d8893b')
}
// for tests and the curious: the charts as uPlot objects
window.ledgerDashboard = { charts: state.charts }
if (state.key === null) $('key-form').hidden = true
poll()
setInterval(poll, POLL_MS)
