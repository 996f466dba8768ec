// The admin UI in headless chromium (HTTP Basic via httpCredentials): approve a pending
// signup, create an invite, issue and revoke an API token, block and unblock.
import t from 'tap'
import type { AddressInfo } from 'node:net'
import type { Browser } from 'playwright-core'
import { launchChromium } from '../helpers/browser.ts'
import { startChatNode, ADMIN_USER, ADMIN_PASSWORD } from '../plugins/messenger/fixtures/chat-node.ts'

t.test('an admin approves a pending signup in the browser', async (t) => {
  const node = await startChatNode()
  let browser: Browser | undefined
  t.teardown(async () => { await browser?.close(); await node.stop() })
  await node.fundFaucet()
  const base = `http://127.0.0.1:${(node.app.server.address() as AddressInfo).port}`
  for (const name of ['first-in-line', 'second']) {
    await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name } })
  }

  browser = await launchChromium()
  // without credentials the page answers with a Basic challenge, which makes a browser prompt
  const anonymous = await browser.newContext()
  const denied = await anonymous.request.get(`${base}/admin`)
  t.equal(denied.status(), 401)
  t.equal(denied.headers()['www-authenticate'], 'Basic realm="ledger-admin"')
  await anonymous.close()

  const context = await browser.newContext({ httpCredentials: { username: ADMIN_USER, password: ADMIN_PASSWORD } })
  const page = await context.newPage()
  page.setDefaultTimeout(10_000)
  const pageErrors: string[] = []
  page.on('pageerror', (err) => pageErrors.push(err.message))
  const consoleErrors: string[] = []
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()) })
  await page.goto(`${base}/admin`)
  t.same(await page.$$eval('.site-nav a', (as) => as.map((a) => a.textContent)), ['Ledger', 'Chat', 'Explorer', 'Playground', 'Admin', 'API docs'], 'the shared navigation')
  t.equal(await page.getAttribute('.site-nav a[aria-current="page"]', 'href'), '/admin')
  t.equal((await context.request.get(`${base}/favicon.ico`)).headers()['content-type'], 'image/svg+xml')

  const row = page.locator('#pending tr[data-name="first-in-line"]')
  await row.waitFor()
  t.equal(await page.locator('#pending tr').first().getAttribute('data-name'), 'first-in-line', 'oldest first')
  await row.getByRole('button', { name: 'Approve' }).click()
  await page.waitForSelector('#approved-box:not([hidden])')
  const link = await page.textContent('#approved-link')
  t.match(link, /\/\?name=first-in-line&token=[0-9a-f]{32}$/, 'the login link to send the user')
  await page.waitForSelector('#users tr[data-name="first-in-line"]')
  t.equal(await page.locator('#pending tr[data-name="first-in-line"]').count(), 0, 'gone from the queue')
  const user = node.resolve('accounts').user('first-in-line')
  t.ok(user, 'approved on the server')
  t.match(await page.textContent('#approved-faucet'), /100 coin/)

  // the link works for the user
  const userPage = await browser.newPage()
  await userPage.goto(link ?? '')
  await userPage.waitForSelector('#chat:not([hidden])')
  t.equal(await userPage.textContent('#me-name'), 'first-in-line')

  // invites
  await page.fill('#invite-uses', '3')
  await page.click('#invite-create')
  await page.waitForSelector('#invite-box:not([hidden])')
  const code = await page.textContent('#invite-code')
  t.match(code, /^CODE-[A-HJKMNP-Z2-9]{6}$/)
  t.match(await page.textContent('#invite-url'), new RegExp(`/\\?invite=${code}$`))
  await page.waitForSelector(`#invites tr[data-name="${code}"]`)

  // API tokens
  await page.fill('#token-label', 'ci-bot')
  await page.selectOption('#token-user', 'first-in-line')
  await page.click('#token-create')
  await page.waitForSelector('#token-box:not([hidden])')
  const raw = await page.textContent('#token-raw')
  t.match(raw, /^ldg_[0-9a-f]{64}$/, 'the raw token is shown once')
  t.equal(node.resolve('accounts').authenticateApiToken(raw ?? '')?.name, 'first-in-line')
  await page.locator('#tokens tr[data-name="ci-bot"]').getByRole('button', { name: 'Revoke' }).click()
  await page.waitForSelector('#tokens tr[data-name="ci-bot"]:has-text("revoked")')
  t.equal(node.resolve('accounts').authenticateApiToken(raw ?? ''), undefined, 'revoked from the UI')

  // block and unblock
  await page.fill('#block-name', 'second')
  await page.fill('#block-reason', 'spam')
  await page.click('#block-form button[type="submit"]')
  await page.waitForSelector('#blocked tr[data-name="second"]:has-text("spam")')
  t.equal(await page.locator('#pending tr[data-name="second"]').count(), 0)
  await page.locator('#blocked tr[data-name="second"]').getByRole('button', { name: 'Unblock' }).click()
  await page.waitForSelector('#blocked td.empty')
  t.notOk(node.resolve('accounts').isBlocked('second'))
  t.same(consoleErrors, [], 'no console errors')
  t.same(pageErrors, [], 'no script errors')
})
