// The chat landing page in headless chromium: an invite link signs a person up, they send
// a message, it appears (pending, then confirmed) through the event stream; their login
// link signs them in from a second browser.
import t from 'tap'
import type { AddressInfo } from 'node:net'
import type { Browser } from 'playwright-core'
import { launchChromium } from '../helpers/browser.ts'
import { startChatNode, CHAT_PLUGINS } from '../plugins/messenger/fixtures/chat-node.ts'

t.test('invite signup -> send -> the message appears', async (t) => {
  const node = await startChatNode({ config: { stream: { heartbeatSeconds: 1 } }, plugins: [...CHAT_PLUGINS, 'explorer'] })
  let browser: Browser | undefined
  t.teardown(async () => { await browser?.close(); await node.stop() })
  await node.fundFaucet()
  const base = `http://127.0.0.1:${(node.app.server.address() as AddressInfo).port}`
  const invite = (await node.admin('POST', '/api/admin/invites/create', { max_uses: 2 })).json()

  browser = await launchChromium()
  const page = await browser.newPage()
  page.setDefaultTimeout(10_000)
  const pageErrors: string[] = []
  page.on('pageerror', (err) => pageErrors.push(err.message))

  // a logged-out page: nothing in the console, no failed request (favicon included)
  const consoleErrors: string[] = []
  const failed: string[] = []
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()) })
  page.on('response', (r) => { if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`) })
  await page.goto(`${base}/?invite=${invite.code}`)
  t.equal(await page.inputValue('#signup-invite'), invite.code, 'the invite link fills in the code')
  t.ok(await page.isHidden('#me'), 'no user panel before signing in')
  t.same(await page.$$eval('.site-nav a', (as) => as.map((a) => a.getAttribute('href'))), ['/', '/', '/explorer', '/playground', '/admin', '/docs'], 'one navigation: chat, explorer, playground, admin, docs')
  t.equal(await page.getAttribute('.site-nav a[aria-current="page"]', 'href'), '/')
  t.equal((await page.request.get(`${base}/favicon.ico`)).status(), 200, 'a favicon')

  // the name rule in words; a long name is refused, never cut to 32
  const longName = 'a-very-long-name-of-forty-characters-xyz'
  await page.fill('#signup-name', longName)
  t.equal(await page.inputValue('#signup-name'), longName, 'not truncated')
  await page.click('#signup-button')
  await page.waitForSelector('#signup-result:has-text("2 to 32 characters")')
  t.match(await page.textContent('#signup-name-rule'), /is 40 characters/)
  t.equal(node.resolve('accounts').user(longName), undefined, 'nothing was sent')
  t.same(consoleErrors, [], 'no console errors while logged out')
  t.same(failed, [], 'no failed requests while logged out')
  await page.fill('#signup-name', 'walker')
  await page.click('#signup-button')
  await page.waitForSelector('#chat:not([hidden])')
  t.equal(await page.textContent('#me-name'), 'walker', 'signed in right away')
  const loginLink = await page.textContent('#login-link')
  t.match(loginLink, /\/\?name=walker&token=[0-9a-f]{32}$/, 'the login link is shown')
  await page.waitForSelector('#stream-state:text("live")')

  await page.fill('#message-text', 'before my coin arrived')
  await page.click('#send-button')
  await page.waitForSelector('#send-result:has-text("insufficient balance")')
  t.pass('sending before the faucet drip confirms explains why it failed')
  await node.mine()
  await page.waitForSelector('#me-balance:text("100")')
  t.pass('the balance follows the block that confirmed the drip')

  // too long: counted live and refused with the SPEC's text, never cut; blank refused
  await page.fill('#message-text', 'x'.repeat(600))
  t.equal(await page.textContent('#message-count'), '600 / 512: 88 too many')
  t.equal(await page.getAttribute('#message-count', 'class'), 'count over')
  await page.click('#send-button')
  await page.waitForSelector('#send-result:has-text("text must be 1-512 chars")')
  t.equal((await page.inputValue('#message-text')).length, 600, 'the text is kept whole')
  await page.fill('#message-text', '   ')
  await page.click('#send-button')
  await page.waitForSelector('#send-result:has-text("cannot be blank")')
  t.equal(node.resolve('mempool').list().filter((x) => typeof x.data.memo === 'string').length, 0, 'neither reached the chain')

  await page.fill('#message-text', 'hello from the browser')
  t.equal(await page.textContent('#message-count'), '22 / 512')
  await page.click('#send-button')
  const item = page.locator('#messages li', { hasText: 'hello from the browser' })
  await item.waitFor()
  t.equal(await item.getAttribute('data-status'), 'pending', 'appears as pending from the stream')
  t.equal(await item.locator('.who').textContent(), 'walker')
  const txHref = await item.locator('a.tx-link').getAttribute('href')
  t.match(txHref, /^\/explorer#\/tx\/[0-9a-f]{64}$/, 'every message links to its transaction (full id)')

  await node.mine()
  await page.waitForSelector('#messages li[data-status="confirmed"]:has-text("hello from the browser")')
  t.pass('turns confirmed when the block lands')
  t.equal(await page.inputValue('#message-text'), '', 'the input was cleared')

  await page.fill('#message-text', 'too fast')
  await page.click('#send-button')
  await page.waitForSelector('#send-result:has-text("rate limit: wait")')
  t.pass('the rate limit is shown')

  // the login link signs the person in on another device
  const other = await browser.newPage()
  await other.goto(loginLink ?? '')
  await other.waitForSelector('#chat:not([hidden])')
  t.equal(await other.textContent('#me-name'), 'walker')
  t.equal(new URL(other.url()).search, '', 'the token is dropped from the address bar')
  await other.waitForSelector('#messages li:has-text("hello from the browser")')

  // chat -> explorer: the link opens the message's transaction
  const explorer = await browser.newPage()
  await explorer.goto(`${base}${txHref ?? ''}`)
  await explorer.waitForSelector('#tx-detail[data-status="confirmed"]')
  t.equal(await explorer.textContent('#tx-memo'), 'hello from the browser')
  t.equal(await explorer.textContent('#tx-from a'), 'walker')

  // blocked while typing: told why, the typed text kept; the old messages keep the name
  t.equal((await node.admin('POST', '/api/admin/block', { name: 'walker' })).statusCode, 200)
  await page.fill('#message-text', 'a thought I do not want to lose')
  await page.click('#send-button')
  await page.waitForSelector('#notice:has-text("Your access was revoked")')
  t.equal(await page.inputValue('#message-text'), 'a thought I do not want to lose')
  t.equal(await page.isVisible('#chat'), true, 'the room stays on screen, not the signup form')
  await page.click('#send-button')
  await page.waitForSelector('#send-result:has-text("Your access was revoked")')
  t.equal(await page.inputValue('#message-text'), 'a thought I do not want to lose', 'pressing send again explains again, the text still kept')
  await other.reload()
  await other.waitForSelector('#notice:has-text("Your access was revoked")')
  t.equal(await other.isVisible('#signup-form'), true, 'a fresh page load explains, then offers sign-up')
  t.equal((await node.admin('POST', '/api/admin/unblock', { name: 'walker' })).statusCode, 200)
  const messages = (await node.app.inject({ method: 'GET', url: '/api/messages', headers: { cookie: await loginCookie(node, invite.code) } })).json().messages as Array<{ sender: string; text: string }>
  t.equal(messages.find((m) => m.text === 'hello from the browser')?.sender, 'walker', 'after unblock the old message still shows the name')

  // a pending signup shows the pending notice
  const third = await browser.newPage()
  const thirdErrors: string[] = []
  third.on('console', (m) => { if (m.type() === 'error') thirdErrors.push(m.text()) })
  await third.goto(base)
  await third.fill('#signup-name', 'patient')
  await third.click('#signup-button')
  await third.waitForSelector('#notice:has-text("waiting for an admin")')
  t.pass('pending notice shown')
  t.same(thirdErrors, [], 'no console errors on a logged-out page')
  t.same(pageErrors, [], 'no script errors')
})

/** a session for a fresh user (to read /api/messages as someone else) */
async function loginCookie (node: Awaited<ReturnType<typeof startChatNode>>, code: string): Promise<string> {
  const res = await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'reader', invite_code: code } })
  const c = res.cookies.find((x) => x.name === 'session')
  return `session=${c?.value ?? ''}`
}
