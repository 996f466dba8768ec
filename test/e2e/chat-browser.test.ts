// The chat landing page in headless chromium: an invite link signs a person up, they send
// a message, it appears (pending, then confirmed) through the event stream; their login
// link signs them in from a second browser.
import t from 'tap'
import type { AddressInfo } from 'node:net'
import { chromium } from 'playwright-core'
import type { Browser } from 'playwright-core'
import { startChatNode } from '../plugins/messenger/fixtures/chat-node.ts'

const LAUNCH = { executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] }

t.test('invite signup -> send -> the message appears', async (t) => {
  const node = await startChatNode({ config: { stream: { heartbeatSeconds: 1 } } })
  let browser: Browser | undefined
  t.teardown(async () => { await browser?.close(); await node.stop() })
  await node.fundFaucet()
  const base = `http://127.0.0.1:${(node.app.server.address() as AddressInfo).port}`
  const invite = (await node.admin('POST', '/api/admin/invites/create', { max_uses: 2 })).json()

  browser = await chromium.launch(LAUNCH)
  const page = await browser.newPage()
  page.setDefaultTimeout(10_000)
  const pageErrors: string[] = []
  page.on('pageerror', (err) => pageErrors.push(err.message))

  await page.goto(`${base}/?invite=${invite.code}`)
  t.equal(await page.inputValue('#signup-invite'), invite.code, 'the invite link fills in the code')
  t.ok(await page.isHidden('#me'), 'no user panel before signing in')
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

  await page.fill('#message-text', 'hello from the browser')
  await page.click('#send-button')
  const item = page.locator('#messages li', { hasText: 'hello from the browser' })
  await item.waitFor()
  t.equal(await item.getAttribute('data-status'), 'pending', 'appears as pending from the stream')
  t.equal(await item.locator('.who').textContent(), 'walker')

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

  // a pending signup shows the pending notice
  const third = await browser.newPage()
  await third.goto(base)
  await third.fill('#signup-name', 'patient')
  await third.click('#signup-button')
  await third.waitForSelector('#notice:has-text("waiting for an admin")')
  t.pass('pending notice shown')
  t.same(pageErrors, [], 'no script errors')
})
