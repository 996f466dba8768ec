// The contract playground page: edit a contract, compile it (errors point at line:column),
// deploy it, call its methods through forms generated from the ABI, and watch each
// transaction's receipt and logs arrive as blocks are mined. Every value from the API reaches
// the page as text, never as HTML.

import { h } from '/common/dom.js'
import { decodeLog, decodeWord } from '/common/abi-words.js'

const $ = (id) => document.getElementById(id)
const TOKEN_KEY = 'ledger-playground-token'
/** per user: the open contract and the transactions list survive a reload */
const SAVED_PREFIX = 'ledger-playground:'
const SAVED_MAX = 50
const POLL_MS = 1000
const DEFAULT_GAS = 1000000

const state = {
  examples: [],
  /** the contract open in the call panel: { address, abi } */
  contract: null,
  /** tx_id -> { kind, abi, method } of transactions whose receipt has not arrived */
  pending: new Map(),
  timer: null,
  contractsSeq: 0,
  /** the signed-in user's name: the key of what is saved across reloads */
  user: null,
  /** newest first: { txId, kind, label, fee, abi, method } */
  activity: [],
  /** the example whose source is in the editor, until the user changes it */
  example: null
}

// ---- what survives a reload (localStorage, per user)

function savedKey () { return state.user === null ? null : `${SAVED_PREFIX}${state.user}` }

function save () {
  const key = savedKey()
  if (key === null) return
  try {
    localStorage.setItem(key, JSON.stringify({ open: state.contract?.address ?? null, activity: state.activity.slice(0, SAVED_MAX) }))
  } catch { /* storage full or disabled: the page still works, it just forgets on reload */ }
}

function loadSaved () {
  const key = savedKey()
  if (key === null) return { open: null, activity: [] }
  try {
    const v = JSON.parse(localStorage.getItem(key) ?? 'null')
    return { open: typeof v?.open === 'string' ? v.open : null, activity: Array.isArray(v?.activity) ? v.activity : [] }
  } catch {
    return { open: null, activity: [] }
  }
}

// ---- helpers

const short = (s, keep = 8) => (s.length > keep * 2 + 1 ? `${s.slice(0, keep)}…${s.slice(-6)}` : s)

async function api (method, url, body) {
  const headers = {}
  const token = sessionStorage.getItem(TOKEN_KEY)
  if (token !== null) headers.authorization = `Bearer ${token}`
  if (body !== undefined) headers['content-type'] = 'application/json'
  let res
  try {
    res = await fetch(url, { method, credentials: 'same-origin', headers, body: body === undefined ? undefined : JSON.stringify(body) })
  } catch (err) {
    return { ok: false, status: 0, data: { error: `the node did not answer: ${err.message}` } }
  }
  let data = null
  try { data = await res.json() } catch { data = null }
  // a session or token that ends while the page is in use sends the user back to sign-in
  if (res.status === 401 && url.startsWith('/api/playground/') && !$('workspace').hidden) showLogin('Your session ended: sign in again.')
  return { ok: res.ok, status: res.status, data }
}

function notice (text, kind = '') {
  const el = $('notice')
  el.textContent = text
  el.className = `notice ${kind}`.trim()
  el.hidden = text === ''
}

function errorText (data) {
  if (data === null || typeof data !== 'object') return 'unexpected answer from the node'
  const extra = typeof data.reason === 'string' ? ` (${data.reason})` : ''
  return `${data.error}${extra}`
}

// ---- words as the ABI types read them

// ---- sign-in

function showLogin (message = '') {
  $('workspace').hidden = true
  $('account').hidden = true
  $('login-panel').hidden = false
  const err = $('login-error')
  err.textContent = message
  err.hidden = message === ''
}

async function login (event) {
  event.preventDefault()
  sessionStorage.removeItem(TOKEN_KEY)
  const r = await api('POST', '/api/login', { name: $('login-name').value.trim(), token: $('login-token').value.trim() })
  if (!r.ok) return showLogin(errorText(r.data))
  $('login-token').value = ''
  await start()
}

async function useToken (event) {
  event.preventDefault()
  sessionStorage.setItem(TOKEN_KEY, $('api-token').value.trim())
  $('api-token').value = ''
  const ok = await start()
  if (!ok) {
    sessionStorage.removeItem(TOKEN_KEY)
    showLogin('That API token was not accepted (unknown, revoked, or not of scope playground).')
  }
}

async function logout () {
  sessionStorage.removeItem(TOKEN_KEY)
  await api('POST', '/api/logout')
  state.pending.clear()
  state.activity = []
  state.user = null
  state.contract = null
  $('interact-panel').hidden = true
  $('activity').replaceChildren()
  $('activity-empty').hidden = false
  showLogin()
}

// ---- editor

function renderGutter (errorLine = null) {
  const lines = $('source').value.split('\n').length
  const gutter = $('gutter')
  gutter.replaceChildren(...Array.from({ length: lines }, (_, i) => {
    const n = i + 1
    return [h('span', { class: n === errorLine ? 'error-line' : undefined, dataset: { line: String(n) } }, String(n)), '\n']
  }).flat())
  gutter.scrollTop = $('source').scrollTop
}

function offsetOf (text, line, column) {
  const lines = text.split('\n')
  let offset = 0
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1
  return Math.min(text.length, offset + Math.max(0, column - 1))
}

function clearCompileError () {
  const el = $('compile-error')
  el.hidden = true
  el.textContent = ''
  delete el.dataset.line
  delete el.dataset.column
  renderGutter()
}

function showCompileError (data) {
  const el = $('compile-error')
  el.textContent = data.phase === 'compile' ? `Compile error at ${data.error}` : errorText(data)
  el.hidden = false
  $('compile-result').hidden = true
  if (data.phase === 'compile' && Number.isInteger(data.line)) {
    el.dataset.line = String(data.line)
    el.dataset.column = String(data.column)
    renderGutter(data.line)
    const src = $('source')
    const at = offsetOf(src.value, data.line, data.column)
    src.focus()
    src.setSelectionRange(at, Math.min(src.value.length, at + 1))
  }
}

function showCompileResult ({ bytecode_size: size, abi }) {
  const sig = (m) => `${m.name}(${m.params.map((p) => `${p.name}: ${p.type}`).join(', ')})${m.returns === null ? '' : ` -> ${m.returns}`}`
  $('compile-result').replaceChildren(...[
    h('p', { id: 'compile-summary' }, h('span', { class: 'badge ok' }, 'compiled'), ` ${abi.contract}: ${size} bytes of bytecode, ${abi.methods.length} methods`),
    h('h3', {}, 'Methods'),
    h('ul', { id: 'abi-methods' }, abi.methods.map((m) => h('li', {}, h('code', {}, `0x${m.selector.toString(16).padStart(2, '0')}`), ' ', sig(m)))),
    abi.storage.length === 0 ? null : [h('h3', {}, 'Storage'), h('ul', {}, abi.storage.map((s) => h('li', {}, `${s.name}: ${s.type} @ slot ${s.slot}`)))],
    abi.events.length === 0 ? null : [h('h3', {}, 'Events'), h('ul', {}, abi.events.map((e) => h('li', {}, e.signature)))]
  ].flat().filter((x) => x !== null))
  $('compile-result').hidden = false
}

async function compile () {
  const r = await api('POST', '/api/playground/compile', { source: $('source').value })
  if (r.status === 401) return null
  if (!r.ok) {
    showCompileError(r.data)
    return null
  }
  clearCompileError()
  showCompileResult(r.data)
  return r.data
}

function loadExample () {
  const ex = state.examples.find((e) => e.id === $('example-select').value)
  if (ex === undefined) return
  state.example = ex
  $('source').value = ex.source
  $('source').scrollTop = 0
  const d = $('example-description')
  d.textContent = ex.description
  d.hidden = false
  $('compile-result').hidden = true
  clearCompileError()
}

/** the description belongs to the example: once the source is something else, it goes */
function onSourceInput () {
  renderGutter()
  if (state.example !== null && $('source').value !== state.example.source) {
    state.example = null
    $('example-description').hidden = true
    $('example-select').value = ''
  }
}

function onTab (event) {
  if (event.key !== 'Tab' || event.shiftKey || event.ctrlKey || event.altKey || event.metaKey) return
  event.preventDefault()
  const src = $('source')
  const { selectionStart: a, selectionEnd: b } = src
  src.setRangeText('    ', a, b, 'end')
  onSourceInput()
}

// ---- deploy and call

function numberInput (el, fallback) {
  const text = el.value.trim()
  return text === '' ? fallback : Number(text)
}

async function deploy () {
  notice('')
  const button = $('deploy-button')
  button.disabled = true
  try {
    const r = await api('POST', '/api/playground/deploy', {
      source: $('source').value,
      gas_limit: numberInput($('deploy-gas'), DEFAULT_GAS),
      value: $('deploy-value').value.trim() === '' ? 0 : $('deploy-value').value.trim()
    })
    if (r.status === 401) return
    if (!r.ok) {
      if (r.data?.phase === 'compile') showCompileError(r.data)
      else notice(`Deploy refused: ${errorText(r.data)}`, 'error')
      return
    }
    clearCompileError()
    showCompileResult(r.data)
    track(r.data.tx_id, { kind: 'deploy', abi: r.data.abi, label: `deploy ${r.data.abi.contract}`, fee: r.data.fee })
    await refreshContracts()
  } finally {
    button.disabled = false
  }
}

function argInput (param) {
  const common = { name: param.name, dataset: { type: param.type }, required: true, spellcheck: 'false', autocomplete: 'off' }
  switch (param.type) {
    case 'bool': return h('select', { name: param.name, dataset: { type: 'bool' } }, h('option', { value: 'false' }, 'false'), h('option', { value: 'true' }, 'true'))
    case 'uint': return h('input', { ...common, inputmode: 'numeric', pattern: '(0x[0-9a-fA-F]+|[0-9]+)', placeholder: '0', title: 'a whole number, decimal or 0x-hex' })
    case 'address': return h('input', { ...common, pattern: '(0x)?[0-9a-fA-F]{40}', placeholder: '40-hex VM address', title: 'a 40-hex VM address' })
    default: return h('input', { ...common, required: false, maxlength: '66', placeholder: 'text (up to 32 bytes) or 0x-hex', title: 'text of up to 32 bytes, or 0x-hex' })
  }
}

function argValue (el) {
  if (el.dataset.type === 'bool') return el.value === 'true'
  return el.value.trim()
}

/** A method that writes nothing (the compiler says so in the ABI) runs as a free query. */
const isRead = (method) => method.mutates === false

async function runRead (method, inputs, gas, result, error) {
  const contract = state.contract
  const r = await api('POST', '/api/playground/query', {
    contract_addr: contract.address,
    selector: method.selector,
    args: inputs.map(argValue),
    params: method.params,
    gas_limit: numberInput(gas, DEFAULT_GAS)
  })
  if (r.status === 401) return
  if (!r.ok) {
    error.textContent = r.data?.phase === 'encode' ? `Cannot encode the arguments: ${r.data.error}` : errorText(r.data)
    error.hidden = false
    return
  }
  const q = r.data
  const value = !q.success
    ? `failed: ${q.revert_reason ?? q.error ?? 'reverted'}`
    : q.return_hex === '' ? '(nothing)' : method.returns !== null && q.return_hex.length === 64 ? decodeWord(q.return_hex, method.returns) : `0x${q.return_hex}`
  result.replaceChildren(h('span', { class: 'muted' }, '→ '), h('output', { class: q.success ? 'value' : 'value failed' }, value),
    h('span', { class: 'muted' }, ` · block #${q.block_height} · ${q.gas_used.toLocaleString('en-US')} gas, free`))
  result.dataset.success = String(q.success)
  result.hidden = false
}

function methodForm (method) {
  const inputs = method.params.map(argInput)
  const read = isRead(method)
  const error = h('p', { class: 'error form-error', role: 'alert', hidden: true })
  const result = h('p', { class: 'query-result', role: 'status', hidden: true })
  const value = h('input', { class: 'value', inputmode: 'decimal', value: '0', title: 'coin sent with the call' })
  const gas = h('input', { class: 'gas', type: 'number', min: '1', step: '1', value: String(DEFAULT_GAS) })
  const submit = h('button', { type: 'submit', title: read ? 'runs read-only on the current state: no transaction, no fee' : 'sends a transaction (mined, paid from your wallet)' }, read ? 'Read' : 'Call')
  const form = h('form', { class: 'method', dataset: { method: method.name, mode: read ? 'read' : 'call' }, autocomplete: 'off' },
    h('div', { class: 'signature' }, `${method.name}(${method.params.map((p) => `${p.name}: ${p.type}`).join(', ')})`,
      method.returns === null ? '' : ` -> ${method.returns}`,
      h('span', { class: 'muted' }, ` · selector 0x${method.selector.toString(16).padStart(2, '0')}${read ? ' · read-only, free' : ''}`)),
    method.params.length === 0 ? null : h('div', { class: 'args' }, method.params.map((p, i) => h('label', {}, `${p.name}: ${p.type}`, inputs[i]))),
    h('div', { class: 'row' }, read ? null : h('label', {}, 'Value', value), h('label', {}, 'Gas', gas), submit),
    result,
    error)
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    error.hidden = true
    submit.disabled = true
    if (read) {
      try { await runRead(method, inputs, gas, result, error) } finally { submit.disabled = false }
      return
    }
    try {
      const contract = state.contract
      const args = inputs.map(argValue)
      const r = await api('POST', '/api/playground/call', {
        contract_addr: contract.address,
        selector: method.selector,
        args,
        params: method.params,
        gas_limit: numberInput(gas, DEFAULT_GAS),
        value: value.value.trim() === '' ? 0 : value.value.trim()
      })
      if (r.status === 401) return
      if (!r.ok) {
        error.textContent = r.data?.phase === 'encode' ? `Cannot encode the arguments: ${r.data.error}` : errorText(r.data)
        error.hidden = false
        return
      }
      const shown = args.map((a) => (typeof a === 'string' && a.length > 20 ? short(a) : String(a)))
      track(r.data.tx_id, { kind: 'call', abi: contract.abi, method, label: `${method.name}(${shown.join(', ')})`, fee: r.data.fee })
    } finally {
      submit.disabled = false
    }
  })
  return form
}

function openContract (contract) {
  state.contract = contract
  save()
  $('interact-panel').hidden = false
  $('contract-name').textContent = contract.abi.contract
  $('contract-addr').textContent = contract.address
  $('methods').replaceChildren(...contract.abi.methods.map(methodForm))
  for (const row of $('contracts').querySelectorAll('tbody tr')) row.classList.toggle('selected', row.dataset.address === contract.address)
}

// ---- the user's contracts and account

function renderAccount (account) {
  $('account').hidden = false
  $('account-name').textContent = account.name
  $('account-balance').textContent = `${Number(account.balance).toLocaleString('en-US', { maximumFractionDigits: 18 })} coin`
  $('account-vm').textContent = `0x${account.vm_address}`
}

function renderContracts (contracts) {
  const rows = contracts.map((c) => {
    const failed = c.status === 'deployed' && c.success === false
    const status = failed ? 'failed' : c.status
    const open = h('button', { type: 'button', class: 'open', disabled: c.status !== 'deployed' || failed }, 'Open')
    open.addEventListener('click', () => openContract({ address: c.contract_addr, abi: c.abi }))
    return h('tr', { dataset: { txId: c.tx_id, address: c.contract_addr ?? '', status } },
      h('td', {}, c.abi.contract),
      h('td', {}, c.contract_addr === null ? h('span', { class: 'muted' }, 'pending') : h('a', { class: 'mono', href: `/explorer#/address/${c.contract_addr}`, title: c.contract_addr }, short(c.contract_addr))),
      h('td', {}, h('span', { class: `badge ${status}` }, status)),
      h('td', {}, open))
  })
  $('contracts').querySelector('tbody').replaceChildren(...rows)
  $('contracts').hidden = rows.length === 0
  $('contracts-empty').hidden = rows.length !== 0
  if (state.contract !== null) {
    for (const row of rows) row.classList.toggle('selected', row.dataset.address === state.contract.address)
  }
}

async function refreshContracts () {
  const seq = ++state.contractsSeq
  const r = await api('GET', '/api/playground/contracts')
  if (!r.ok || seq !== state.contractsSeq) return r.ok
  renderAccount(r.data.account)
  renderContracts(r.data.contracts)
  return true
}

// ---- transactions and their receipts

function track (txId, info, { restoring = false } = {}) {
  // a restored deploy does not take over the call panel when its receipt is fetched again
  state.pending.set(txId, restoring ? { ...info, restored: true } : info)
  if (!restoring) {
    state.activity = [{ txId, ...info }, ...state.activity.filter((a) => a.txId !== txId)].slice(0, SAVED_MAX)
    save()
  }
  $('activity-empty').hidden = true
  const item = h('li', { id: `tx-${txId}`, dataset: { txId, kind: info.kind, status: 'pending' } },
    h('div', { class: 'head' },
      h('span', { class: 'badge' }, info.kind),
      h('span', { class: 'label' }, info.label),
      h('a', { class: 'mono', href: `/explorer#/tx/${txId}`, title: txId }, short(txId)),
      h('span', { class: 'badge pending status' }, 'pending')),
    h('p', { class: 'muted waiting' }, `waiting for a block · fee ${info.fee} coin`))
  if (restoring) $('activity').append(item)
  else $('activity').prepend(item)
  if (state.timer === null) state.timer = setInterval(poll, POLL_MS)
}

function receiptRows (r, info) {
  const rows = [['Result', r.success ? 'success' : 'failed', 'result'], ['Gas used', r.gas_used.toLocaleString('en-US'), 'gas'], ['Block', `#${r.block_height}`, 'block']]
  if (r.contract_addr !== undefined) rows.push(['Contract', r.contract_addr, 'contract'])
  if (info.kind === 'call' && r.success) {
    const returns = info.method?.returns ?? null
    const value = r.return_hex === '' ? '(nothing)' : returns !== null && r.return_hex.length === 64 ? decodeWord(r.return_hex, returns) : `0x${r.return_hex}`
    rows.push(['Returned', value, 'return'])
  }
  if (!r.success) {
    if (r.revert_reason !== undefined) rows.push(['Revert reason', r.revert_reason, 'revert-reason'])
    if (r.error !== undefined) rows.push(['Error', r.error, 'vm-error'])
  }
  return rows
}

function showReceipt (txId, r, info) {
  const item = $(`tx-${txId}`)
  if (item === null) return
  item.dataset.status = 'confirmed'
  item.dataset.success = String(r.success)
  const badge = item.querySelector('.status')
  badge.textContent = r.success ? 'confirmed' : 'failed'
  badge.className = `badge status ${r.success ? 'ok' : 'failed'}`
  const list = h('dl', {}, receiptRows(r, info).flatMap(([k, v, cls]) => [h('dt', {}, k), h('dd', { class: cls }, v)]))
  const logs = r.logs.length === 0 ? null : [h('dt', {}, 'Logs'), h('dd', {}, h('ol', { class: 'logs' }, r.logs.map((l) => h('li', { class: 'log' }, decodeLog(l, info.abi)))))]
  if (logs !== null) list.append(...logs)
  item.querySelector('.waiting')?.replaceWith(list)
}

async function poll () {
  let deployed = null
  let changed = false
  for (const [txId, info] of [...state.pending]) {
    const r = await api('GET', `/api/playground/receipt/${txId}`)
    if (!r.ok || r.data.status !== 'confirmed') continue
    state.pending.delete(txId)
    showReceipt(txId, r.data, info)
    changed = true
    if (info.kind === 'deploy' && r.data.success && info.restored !== true) deployed = { address: r.data.contract_addr, abi: info.abi }
  }
  if (changed) await refreshContracts()
  if (deployed !== null) openContract(deployed)
  if (state.pending.size === 0 && state.timer !== null) {
    clearInterval(state.timer)
    state.timer = null
  }
}

// ---- start

async function loadExamples () {
  if (state.examples.length > 0) return
  const r = await api('GET', '/api/playground/examples')
  if (!r.ok) return
  state.examples = r.data.examples
  $('example-select').replaceChildren(h('option', { value: '' }, 'Load an example…'),
    ...state.examples.map((e) => h('option', { value: e.id }, e.title)))
  if ($('source').value.trim() === '' && state.examples.length > 0) {
    $('example-select').value = state.examples[0].id
    loadExample()
  }
}

/** After a reload: the transactions list (receipts fetched again) and the open contract. */
function restore (contracts) {
  const saved = loadSaved()
  state.activity = saved.activity.filter((a) => typeof a?.txId === 'string' && /^[0-9a-f]{64}$/.test(a.txId))
  $('activity').replaceChildren()
  for (const a of state.activity) {
    const { txId, ...info } = a
    track(txId, info, { restoring: true })
  }
  $('activity-empty').hidden = state.activity.length > 0
  const open = contracts.find((c) => c.contract_addr !== null && c.contract_addr === saved.open)
  if (open !== undefined) openContract({ address: open.contract_addr, abi: open.abi })
}

async function start () {
  const r = await api('GET', '/api/playground/contracts')
  if (!r.ok) return false
  state.user = r.data.account.name
  renderAccount(r.data.account)
  renderContracts(r.data.contracts)
  $('login-panel').hidden = true
  $('workspace').hidden = false
  restore(r.data.contracts)
  await loadExamples()
  renderGutter()
  return true
}

$('login-form').addEventListener('submit', login)
$('token-form').addEventListener('submit', useToken)
$('logout-button').addEventListener('click', logout)
$('compile-button').addEventListener('click', () => { notice(''); compile() })
$('deploy-button').addEventListener('click', deploy)
$('example-select').addEventListener('change', loadExample)
$('source').addEventListener('input', onSourceInput)
$('source').addEventListener('scroll', () => { $('gutter').scrollTop = $('source').scrollTop })
$('source').addEventListener('keydown', onTab)
/** signed in (cookie, or a token this tab holds)? asked without a 401 in the console */
async function boot () {
  const r = await api('GET', '/api/session')
  const signedIn = r.ok && r.data.signed_in === true
  if (!signedIn || !(await start())) showLogin()
}

boot()
