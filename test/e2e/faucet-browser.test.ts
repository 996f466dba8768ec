// The faucet queue as a user sees it in chromium: signed up while the faucet wallet is empty,
// the chat header says "faucet: waiting, #2 in line"; once the wallet is funded the drip is
// paid and, in a block, the line disappears and the balance shows the 100 coin.
import t from 'tap'
import type { AddressInfo } from 'node:net'
import type { Browser } from 'playwright-core'
import { launchChromium } from '../helpers/browser.ts'
import { startChatNode } from '../plugins/messenger/fixtures/chat-node.ts'

t.test('chat header: waiting in line, then paid', async (t) => {
  const node = await startChatNode({ config: { stream: { heartbeatSeconds: 1 } } })
  let browser: Browser | undefined
  t.teardown(async () => { await browser?.close(); await node.stop() })
  const base = `http://127.0.0.1:${(node.app.server.address() as AddressInfo).port}`
  const invite = (await node.admin('POST', '/api/admin/invites/create', { max_uses: 5 })).json()
  await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'first', invite_code: invite.code } })

  browser = await launchChromium()
  const page = await browser.newPage()
  page.setDefaultTimeout(15_000)
  const pageErrors: string[] = []
  page.on('pageerror', (err) => pageErrors.push(err.message))
  await page.goto(`${base}/?invite=${invite.code}`)
  await page.fill('#signup-name', 'second')
  await page.click('#signup-button')
  await page.waitForSelector('#chat:not([hidden])')
  t.equal(await page.textContent('#me-faucet'), 'faucet: waiting, #2 in line')
  await page.waitForSelector('#stream-state:text("live")')

  await node.fundFaucet(1000)
  await page.waitForSelector('#me-faucet:text("faucet: 100 coin sent, waiting for a block")')
  t.pass('paid: the header says it is on its way')
  await node.mine()
  await page.waitForSelector('#me-balance:text("100")')
  await page.waitForSelector('#me-faucet', { state: 'hidden' })
  t.pass('in a block: the line is gone, the balance is 100')
  await page.waitForSelector('#notice', { state: 'hidden' })
  t.pass('the welcome notice about the faucet is gone too')
  t.same(pageErrors, [])
})

t.test('the "faucet is sending you 100 coin" notice goes once the coin has arrived', async (t) => {
  const node = await startChatNode({ config: { stream: { heartbeatSeconds: 1 } } })
  let browser: Browser | undefined
  t.teardown(async () => { await browser?.close(); await node.stop() })
  const base = `http://127.0.0.1:${(node.app.server.address() as AddressInfo).port}`
  await node.fundFaucet(1000)
  const invite = (await node.admin('POST', '/api/admin/invites/create', { max_uses: 1 })).json()
  browser = await launchChromium()
  const page = await browser.newPage()
  page.setDefaultTimeout(15_000)
  await page.goto(`${base}/?invite=${invite.code}`)
  await page.fill('#signup-name', 'paid')
  await page.click('#signup-button')
  await page.waitForSelector('#chat:not([hidden])')
  t.match(await page.textContent('#notice'), /The faucet is sending you 100 coin/)
  t.equal(await page.isVisible('#notice'), true, 'shown while the coin is on its way')
  await page.waitForSelector('#stream-state:text("live")')
  await node.mine()
  await page.waitForSelector('#me-balance:text("100")')
  await page.waitForSelector('#notice', { state: 'hidden' })
  t.pass('the coin arrived: the notice is gone')
})
