// The chat landing page: sign up (queued, or at once with an invite code), log in with a
// login token or a login link (/?name=&token=), send messages, and watch the room live over
// the event stream (GET /api/stream), re-querying GET /api/messages after a reconnect.

const $ = (id) => document.getElementById(id)
const MESSAGE_LIMIT = 100
/** SPEC 8: 1..512 chars, counted as the chain counts them (UTF-16 units, String#length) */
const MAX_TEXT = 512
const NAME_RE = /^[A-Za-z0-9_-]{2,32}$/
const NAME_RULE = 'A name is 2 to 32 characters: letters A-Z, digits 0-9, - or _ (no spaces).'
const REVOKED_TEXT = 'Your access was revoked: an admin blocked this name. Anything you had typed is still in the message box, so you can copy it.'

const state = {
  me: null,
  /** tx_id prefix (16 chars) -> message */
  messages: new Map(),
  stream: null,
  streamBroken: false,
  /** a block ended this session: the room stays on screen, sending is off */
  revoked: false,
  balanceTimer: null,
  /** the welcome notice speaks of the faucet's coin: it goes once the coin has arrived */
  faucetNotice: false
}

async function api (method, url, body) {
  const res = await fetch(url, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  let data = null
  try { data = await res.json() } catch { data = null }
  return { ok: res.ok, status: res.status, data }
}

function say (el, text, kind) {
  el.textContent = text
  el.className = `result ${kind ?? ''}`
}

function notice (text, kind) {
  const el = $('notice')
  el.textContent = text
  el.className = `notice ${kind ?? ''}`
  el.hidden = text === ''
}

function loginLinkOf (name, token) {
  const url = new URL('/', location.origin)
  url.searchParams.set('name', name)
  url.searchParams.set('token', token)
  return url.toString()
}

function showLoginLink (name, token) {
  const link = loginLinkOf(name, token)
  $('login-link').href = link
  $('login-link').textContent = link
  $('login-link-box').hidden = false
}

// ---- messages

function formatTime (ts) {
  return new Date(ts * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' })
}

function upsertMessage (m) {
  const known = state.messages.get(m.tx_id)
  // a confirmed message never goes back to pending in the view
  if (known !== undefined && known.status === 'confirmed' && m.status === 'pending') return
  state.messages.set(m.tx_id, m)
}

function renderMessages () {
  const list = $('messages')
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40
  const sorted = [...state.messages.values()].sort((a, b) => a.timestamp - b.timestamp)
  list.replaceChildren(...sorted.map((m) => {
    const li = document.createElement('li')
    li.dataset.txId = m.tx_id
    li.dataset.status = m.status
    const who = document.createElement('span')
    who.className = 'who'
    who.textContent = m.sender
    who.title = m.address
    const when = document.createElement('span')
    when.className = 'meta'
    when.textContent = formatTime(m.timestamp)
    const status = document.createElement('span')
    status.className = 'meta status'
    status.textContent = m.status === 'confirmed' ? `block ${m.block}` : 'pending'
    const link = document.createElement('a')
    link.className = 'tx-link'
    // the full id: the explorer opens the transaction (and its block) directly
    const full = m.transaction_id ?? m.tx_id
    link.href = `/explorer#/tx/${full}`
    link.textContent = `tx ${m.tx_id.slice(0, 8)}…`
    link.title = `transaction ${full} in the explorer`
    const text = document.createElement('span')
    text.className = 'text'
    text.textContent = m.text
    li.append(who, when, status, link, text)
    return li
  }))
  if (sorted.length === 0) {
    const empty = document.createElement('li')
    empty.className = 'empty'
    empty.textContent = 'No messages yet. Say hello!'
    list.append(empty)
  }
  if (atBottom) list.scrollTop = list.scrollHeight
}

async function loadMessages () {
  const r = await api('GET', `/api/messages?limit=${MESSAGE_LIMIT}`)
  if (r.status === 401) return lostSession()
  if (!r.ok) return
  for (const m of r.data.messages) upsertMessage(m)
  renderMessages()
}

// ---- live updates

function connectStream () {
  if (state.stream !== null) state.stream.close()
  // blocks too: a new block may have moved the balance (the faucet drip, message fees)
  const es = new EventSource('/api/stream?types=message,block')
  state.stream = es
  es.onopen = () => {
    $('stream-state').textContent = 'live'
    // after a drop, catch up on what the stream could not deliver (SPEC 6 rule 4)
    if (state.streamBroken) { state.streamBroken = false; loadMessages() }
  }
  es.onmessage = (ev) => {
    let event
    try { event = JSON.parse(ev.data) } catch { return }
    if (event.type === 'block') return refreshBalance()
    if (event.type !== 'message') return
    upsertMessage(event.msg)
    renderMessages()
  }
  es.onerror = () => {
    state.streamBroken = true
    $('stream-state').textContent = 'reconnecting…'
    // EventSource gives up for good on a non-2xx answer (e.g. the session ended)
    if (es.readyState === EventSource.CLOSED) setTimeout(() => { if (state.me !== null) refreshMe() }, 3000)
  }
}

// ---- session

/** the signup drip while it is not yet in a block: "faucet: waiting, #3 in line" */
function showFaucet (faucet, balance) {
  if (state.faucetNotice && (faucet === null || faucet === undefined) && balance > 0) {
    state.faucetNotice = false
    notice('')
  }
  const el = $('me-faucet')
  el.hidden = faucet === null || faucet === undefined
  if (el.hidden) return
  el.textContent = faucet.status === 'waiting'
    ? `faucet: waiting, #${faucet.position} in line`
    : `faucet: ${faucet.amount} coin sent, waiting for a block`
}

async function refreshBalance () {
  const r = await api('GET', '/api/me')
  if (r.status === 401) return lostSession()
  if (!r.ok) return
  $('me-balance').textContent = String(r.data.balance)
  showFaucet(r.data.faucet, r.data.balance)
}

function signedIn (me) {
  state.me = me
  $('me-name').textContent = me.name
  $('me-balance').textContent = String(me.balance)
  showFaucet(me.faucet, me.balance)
  $('me-address').textContent = me.address
  $('me').hidden = false
  $('welcome').hidden = true
  $('chat').hidden = false
  loadMessages()
  connectStream()
  if (state.balanceTimer === null) state.balanceTimer = setInterval(refreshBalance, 15000)
}

function signedOut () {
  state.me = null
  if (state.stream !== null) { state.stream.close(); state.stream = null }
  if (state.balanceTimer !== null) { clearInterval(state.balanceTimer); state.balanceTimer = null }
  state.messages.clear()
  $('me').hidden = true
  $('chat').hidden = true
  $('welcome').hidden = false
}

/** A block ended the session: say so, keep the room and the unsent text on screen. */
function revoked () {
  state.revoked = true
  if (state.stream !== null) { state.stream.close(); state.stream = null }
  if (state.balanceTimer !== null) { clearInterval(state.balanceTimer); state.balanceTimer = null }
  notice(REVOKED_TEXT, 'bad')
  $('stream-state').textContent = 'access revoked'
  // the button stays: pressing it explains again instead of doing nothing
  $('send-form').dataset.revoked = 'true'
  if (state.me === null) {
    // opened after the block: nothing to show but the explanation and the way back
    $('welcome').hidden = false
    $('chat').hidden = true
  }
}

async function refreshMe () {
  const r = await api('GET', '/api/me')
  if (r.status === 401) { await lostSession(); return null }
  if (r.ok) signedIn(r.data)
  else signedOut()
  return r.ok ? r.data : null
}

/** A 401 where a session was: a block revoked it (tell the user, keep what they typed) or it
 *  simply ended. GET /api/session tells which (SPEC keeps /api/me's 401 for both). */
async function lostSession () {
  const r = await api('GET', '/api/session')
  if (r.ok && r.data.revoked) return revoked()
  return signedOut()
}

/** signed in? asked without a 401 in the console (GET /api/session always answers 200) */
async function checkSession () {
  const r = await api('GET', '/api/session')
  if (!r.ok) return null
  if (r.data.revoked) { revoked(); return null }
  if (!r.data.signed_in || r.data.via !== 'session') { signedOut(); return null }
  return await refreshMe()
}

// ---- forms

function checkName () {
  const value = $('signup-name').value.trim()
  const ok = value === '' || NAME_RE.test(value)
  const rule = $('signup-name-rule')
  rule.textContent = ok ? NAME_RULE : `${NAME_RULE} "${value.length > 40 ? `${value.slice(0, 40)}…` : value}" is ${value.length} characters${/[^A-Za-z0-9_-]/.test(value) ? ' and has other characters' : ''}.`
  rule.className = ok ? 'rule' : 'rule bad'
  $('signup-name').setAttribute('aria-invalid', String(!ok))
  return ok && value !== ''
}

$('signup-name').addEventListener('input', checkName)

$('signup-form').addEventListener('submit', async (ev) => {
  ev.preventDefault()
  const out = $('signup-result')
  const name = $('signup-name').value.trim()
  const invite = $('signup-invite').value.trim()
  // never cut a name short: refuse it and say the rule in words
  if (!checkName()) return say(out, NAME_RULE, 'bad')
  $('signup-button').disabled = true
  say(out, 'signing up…')
  const r = await api('POST', '/api/signup', invite === '' ? { name } : { name, invite_code: invite })
  $('signup-button').disabled = false
  if (!r.ok) return say(out, r.data?.error ?? `signup failed (${r.status})`, 'bad')
  if (r.data.status === 'pending') {
    say(out, '', '')
    notice(`Thanks, ${name}: your signup is waiting for an admin to approve it. The admin will send you a login link.`)
    return
  }
  state.faucetNotice = true
  notice(`Welcome, ${r.data.name}! ${r.data.faucet_tx ? 'The faucet is sending you 100 coin: you can chat once the next block confirms them.' : 'The faucet could not pay you right now, so you hold 0 coin until someone funds your wallet.'}`, 'ok')
  say(out, '', '')
  showLoginLink(r.data.name, r.data.login_token)
  await refreshMe()
})

$('login-form').addEventListener('submit', async (ev) => {
  ev.preventDefault()
  const out = $('login-result')
  $('login-button').disabled = true
  const r = await api('POST', '/api/login', { name: $('login-name').value.trim(), token: $('login-token').value.trim() })
  $('login-button').disabled = false
  if (!r.ok) return say(out, r.data?.error ?? `login failed (${r.status})`, 'bad')
  say(out, '', '')
  notice('')
  state.revoked = false
  delete $('send-form').dataset.revoked
  await refreshMe()
})

function updateCount () {
  const n = $('message-text').value.length
  const count = $('message-count')
  count.textContent = n > MAX_TEXT ? `${n} / ${MAX_TEXT}: ${n - MAX_TEXT} too many` : `${n} / ${MAX_TEXT}`
  count.classList.toggle('over', n > MAX_TEXT)
}

$('message-text').addEventListener('input', updateCount)

$('send-form').addEventListener('submit', async (ev) => {
  ev.preventDefault()
  const out = $('send-result')
  const input = $('message-text')
  const text = input.value
  if (state.revoked) return say(out, REVOKED_TEXT, 'bad')
  // the same refusal as the server's (SPEC 7 text), before anything is sent or cut
  if (text.trim() === '') return say(out, 'Write something first: a message cannot be blank.', 'bad')
  if (text.length > MAX_TEXT) return say(out, `text must be 1-${MAX_TEXT} chars (this one is ${text.length})`, 'bad')
  $('send-button').disabled = true
  const r = await api('POST', '/api/send', { text })
  $('send-button').disabled = false
  if (r.status === 401) return lostSession()
  if (!r.ok) return say(out, r.data?.error ?? `send failed (${r.status})`, 'bad')
  input.value = ''
  updateCount()
  say(out, '', '')
  // the stream normally delivers it within a moment; without a stream, poll once
  if (state.streamBroken || state.stream === null) loadMessages()
})

$('logout').addEventListener('click', async () => {
  await api('POST', '/api/logout')
  notice('You are logged out.')
  signedOut()
})

$('login-link-done').addEventListener('click', () => { $('login-link-box').hidden = true })

// ---- boot: invite links (/?invite=CODE) and login links (/?name=&token=)

async function boot () {
  const params = new URLSearchParams(location.search)
  const invite = params.get('invite')
  const name = params.get('name')
  const token = params.get('token')
  if (invite !== null) {
    $('signup-invite').value = invite
    notice('You have an invite: pick a name to join right away.')
  }
  if (name !== null || token !== null) history.replaceState(null, '', '/')
  let me = await checkSession()
  if (name !== null && token !== null && (me === null || me.name.toLowerCase() !== name.toLowerCase())) {
    // the server redeems the link with the page; this repeats it to show why it failed
    const r = await api('POST', '/api/login', { name, token })
    if (r.ok) me = await refreshMe()
    else notice(r.data?.error ?? `login failed (${r.status})`, 'bad')
  }
  if (me === null && invite !== null) $('signup-name').focus()
}

boot()
