// The admin UI: pending signups (approve, block), users (login links, block), blocked names
// (unblock), invite codes (create, revoke) and API tokens (create, revoke). The browser
// already holds the Basic credentials it prompted for when it loaded /admin.

const $ = (id) => document.getElementById(id)

async function api (method, url, body) {
  const res = await fetch(url, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  let data = null
  try { data = await res.json() } catch { data = null }
  if (!res.ok) throw new Error(data?.error ?? `${method} ${url} failed (${res.status})`)
  return data
}

function flash (text, bad = false) {
  const el = $('flash')
  el.textContent = text
  el.className = bad ? 'flash bad' : 'flash'
  el.hidden = text === ''
}

const when = (ts) => ts === null || ts === undefined ? '—' : new Date(ts * 1000).toLocaleString()

function loginLink (name, token) {
  const url = new URL('/', location.origin)
  url.searchParams.set('name', name)
  url.searchParams.set('token', token)
  return url.toString()
}

function cell (content, className) {
  const td = document.createElement('td')
  if (className !== undefined) td.className = className
  if (content instanceof Node) td.append(content)
  else td.textContent = String(content)
  return td
}

function button (label, action, className) {
  const b = document.createElement('button')
  b.type = 'button'
  b.textContent = label
  if (className !== undefined) b.className = className
  b.addEventListener('click', async () => {
    b.disabled = true
    try {
      await action()
    } catch (err) {
      flash(err.message, true)
    } finally {
      b.disabled = false
    }
  })
  return b
}

function actions (...buttons) {
  const td = cell('', 'actions')
  td.append(...buttons)
  return td
}

function fill (tbody, rows, columns, emptyText) {
  if (rows.length === 0) {
    const tr = document.createElement('tr')
    const td = cell(emptyText, 'empty')
    td.colSpan = columns
    tr.append(td)
    tbody.replaceChildren(tr)
    return
  }
  tbody.replaceChildren(...rows)
}

function row (dataName, ...cells) {
  const tr = document.createElement('tr')
  if (dataName !== undefined) tr.dataset.name = dataName
  tr.append(...cells)
  return tr
}

// ---- actions

async function approve (name) {
  const r = await api('POST', '/api/admin/approve', { name })
  $('approved-name').textContent = r.name
  $('approved-link').textContent = loginLink(r.name, r.login_token)
  $('approved-faucet').textContent = r.faucet_tx === null
    ? 'The faucet wallet cannot pay yet: the drip waits in line (see Faucet drips) and is paid as soon as it can.'
    : `Faucet: 100 coin in transaction ${r.faucet_tx.slice(0, 16)}…`
  $('approved-box').hidden = false
  flash(`${r.name} approved`)
  await refresh()
}

async function payAgain (name) {
  const r = await api('POST', '/api/admin/faucet/pay', { name })
  flash(r.status === 'sent' ? `faucet paid ${r.name}: ${r.tx_id.slice(0, 16)}…` : `${r.name} still waits (#${r.position} in line): ${r.reason ?? ''}`, r.status !== 'sent')
  await refresh()
}

async function block (name, reason) {
  const r = await api('POST', '/api/admin/block', reason ? { name, reason } : { name })
  flash(`${r.name} blocked`)
  await refresh()
}

async function unblock (name) {
  const r = await api('POST', '/api/admin/unblock', { name })
  flash(`${r.name} unblocked: they can sign up again`)
  await refresh()
}

// ---- rendering

function renderPending (pending, total) {
  // the API pages the queue (oldest first); the count is the whole queue
  $('pending-count').textContent = total > pending.length ? `${pending.length} of ${total}` : String(total)
  fill($('pending'), pending.map((p) => row(p.name,
    cell(p.name), cell(when(p.signed_up_at)), cell(p.ip),
    actions(button('Approve', () => approve(p.name)), ' ', button('Block', () => block(p.name), 'danger'))
  )), 4, 'Nobody is waiting.')
}

function renderUsers (users, blocked) {
  $('users-count').textContent = String(users.length)
  fill($('users'), users.map((u) => {
    const link = document.createElement('code')
    link.textContent = loginLink(u.name, u.login_token)
    return row(u.name, cell(u.name), cell(u.address), cell(u.balance), cell(when(u.joined_at)), cell(link),
      actions(button('Pay again', () => payAgain(u.name), 'quiet'), ' ', button('Block', () => block(u.name), 'danger')))
  }), 6, 'No approved users yet.')
  fill($('blocked'), blocked.map((b) => row(b.name, cell(b.name), cell(when(b.blocked_at)), cell(b.reason ?? ''),
    actions(button('Unblock', () => unblock(b.name), 'quiet')))), 4, 'No blocked names.')
  const select = $('token-user')
  const chosen = select.value
  select.replaceChildren(...users.map((u) => {
    const o = document.createElement('option')
    o.value = u.name
    o.textContent = u.name
    return o
  }))
  if (users.some((u) => u.name === chosen)) select.value = chosen
}

function renderInvites (invites) {
  fill($('invites'), [...invites].reverse().map((i) => row(i.code,
    cell(i.code, i.revoked ? 'revoked' : undefined), cell(`${i.used} / ${i.max_uses}`), cell(i.remaining), cell(when(i.created_at)),
    cell(i.revoked ? 'revoked' : i.remaining === 0 ? 'used up' : 'active'),
    actions(i.revoked
      ? ''
      : button('Revoke', async () => {
        await api('POST', '/api/admin/invites/revoke', { code: i.code })
        flash(`${i.code} revoked`)
        await refresh()
      }, 'danger'))
  )), 6, 'No invite codes yet.')
}

function renderTokens (tokens) {
  fill($('tokens'), [...tokens].reverse().map((t) => row(t.label,
    cell(t.label, t.revoked_at !== null ? 'revoked' : undefined), cell(t.name), cell(t.scope), cell(when(t.created_at)), cell(when(t.last_used_at)),
    cell(t.revoked_at !== null ? `revoked ${when(t.revoked_at)}` : 'active'),
    actions(t.revoked_at !== null
      ? ''
      : button('Revoke', async () => {
        await api('POST', '/api/admin/tokens/revoke', { id: t.id })
        flash(`token "${t.label}" revoked`)
        await refresh()
      }, 'danger'))
  )), 7, 'No API tokens yet.')
}

function renderFaucet (f) {
  $('faucet-count').textContent = String(f.drips.length)
  $('faucet-wallet').textContent = `Pays ${f.drip_amount} coin per signup from ${f.wallet.address} (balance ${f.wallet.balance} coin), in the order asked.`
  fill($('faucet'), f.drips.map((d) => row(d.name,
    cell(d.position ?? ''), cell(d.name), cell(d.address), cell(when(d.requested_at)),
    cell(d.status === 'waiting' ? `waiting, #${d.position} in line` : `sent ${d.tx_id.slice(0, 16)}…`), cell(d.attempts), cell(d.last_error ?? ''),
    actions(d.status === 'waiting' ? button('Pay again', () => payAgain(d.name), 'quiet') : '')
  )), 8, 'Every drip is paid.')
}

async function refresh () {
  try {
    const [pending, users, invites, tokens, faucet] = await Promise.all([
      api('GET', '/api/admin/pending'), api('GET', '/api/admin/users'), api('GET', '/api/admin/invites'), api('GET', '/api/admin/tokens'),
      api('GET', '/api/admin/faucet')
    ])
    renderFaucet(faucet)
    renderPending(pending.pending, pending.pagination.total)
    renderUsers(users.users, users.blocked_records)
    renderInvites(invites.invites)
    renderTokens(tokens.tokens)
  } catch (err) {
    flash(err.message, true)
  }
}

// ---- forms

$('block-form').addEventListener('submit', async (ev) => {
  ev.preventDefault()
  try {
    await block($('block-name').value.trim(), $('block-reason').value.trim())
    $('block-name').value = ''
    $('block-reason').value = ''
  } catch (err) { flash(err.message, true) }
})

$('invite-form').addEventListener('submit', async (ev) => {
  ev.preventDefault()
  try {
    const r = await api('POST', '/api/admin/invites/create', { max_uses: Number($('invite-uses').value) })
    $('invite-code').textContent = r.code
    $('invite-url').textContent = r.signup_url
    $('invite-box').hidden = false
    flash(`invite ${r.code} created`)
    await refresh()
  } catch (err) { flash(err.message, true) }
})

$('token-form').addEventListener('submit', async (ev) => {
  ev.preventDefault()
  try {
    const r = await api('POST', '/api/admin/tokens/create', { label: $('token-label').value, name: $('token-user').value, scope: $('token-scope').value.trim() || undefined })
    $('token-for').textContent = r.name
    $('token-raw').textContent = r.token
    $('token-box').hidden = false
    $('token-label').value = ''
    flash(`token "${r.label}" created`)
    await refresh()
  } catch (err) { flash(err.message, true) }
})

$('refresh').addEventListener('click', () => { flash(''); refresh() })

refresh()
setInterval(refresh, 10000)
