// The dashboard page in headless chromium: tiles and uPlot charts fill from the node's API,
// recent blocks, peers and node events render, search finds a block, the pre-signed transaction form asks
// for the API key once (kept in sessionStorage) and reports accepted / rejected; the page
// carries the node's page security headers; with requireAuth the page asks for the key.
import t from 'tap'
import type { AddressInfo } from 'node:net'
import type { Browser } from 'playwright-core'
import { launchChromium } from '../helpers/browser.ts'
import { startDashboardNode } from '../plugins/dashboard/fixtures/dashboard-node.ts'
import { PAGE_HEADERS } from '../../plugins/http/web-page.ts'
import { mineBlock } from '../helpers/chain.ts'

t.test('live tiles, charts, blocks, peers, search and submit', async (t) => {
  const node = await startDashboardNode({ withServices: true, config: { dashboard: { port: 0 } } })
  let browser: Browser | undefined
  t.teardown(async () => { await browser?.close(); await node.stop() })
  for (let i = 0; i < 5; i++) await node.mine([])
  const base = `http://127.0.0.1:${(node.dash.server.address() as AddressInfo).port}`

  const res = await fetch(`${base}/`)
  for (const [k, v] of Object.entries(PAGE_HEADERS)) t.equal(res.headers.get(k), v, `header ${k}`)
  t.equal((await fetch(`${base}/dashboard/vendor/uplot/uPlot.esm.js`)).status, 200, 'uPlot from node_modules')
  t.equal((await fetch(`${base}/dashboard/vendor/uplot/package.json`)).status, 404, 'only the files the page loads')
  t.match(await (await fetch(`${base}/api`)).json(), { service: 'dashboard', page: '/' }, 'the JSON index moved to /api')

  browser = await launchChromium()
  const page = await browser.newPage()
  page.setDefaultTimeout(15_000)
  const pageErrors: string[] = []
  page.on('pageerror', (err) => pageErrors.push(err.message))
  // a 400 is the rejected submission below, shown in the page; anything else missing is a bug
  page.on('response', (r) => { if (r.status() >= 400 && !r.url().endsWith('/api/tx/submit')) pageErrors.push(`${r.status()} ${r.url()}`) })
  await page.goto(`${base}/`)
  await page.waitForSelector('#t-height:text("5")')
  t.equal(await page.textContent('#t-peers'), '2', 'the stand-in peers count')
  t.match(await page.textContent('#t-mining'), /^(on|off|halted)$/)
  await page.waitForSelector('#blocks tr[data-height="5"]')
  t.equal(await page.locator('#blocks tr').count(), 6, 'blocks 5..0')
  t.equal(await page.locator('#peers tr').count(), 2)
  t.equal(await page.locator('.chart canvas').count(), 4, 'four uPlot charts')

  await node.mine([])
  await page.waitForSelector('#t-height:text("6")')
  t.pass('live: a new block shows up without a reload')

  // the recent-events feed: the node's start at once, a refused block as it happens
  await page.waitForSelector('#events tr[data-type="node_started"]')
  const tip = node.resolve('chain').tip()
  const bad = mineBlock(node.params, { hash: tip.hash, height: tip.height, timestamp: tip.timestamp }, { difficulty: 3 })
  await node.resolve('chain').processBlock(bad, 'test').catch(() => undefined)
  await page.waitForSelector('#events tr[data-type="block_rejected"]')
  const row = await page.textContent('#events tr[data-type="block_rejected"]')
  t.match(row, /block rejected/)
  t.match(row, new RegExp(`${bad.hash.slice(0, 16)}… from test: BLOCK_ERROR_BAD_DIFFICULTY`))
  t.equal(await page.locator('#events tr').first().getAttribute('data-type'), 'block_rejected', 'newest first')

  await page.fill('#search', '3')
  await page.click('#search-form button')
  await page.waitForSelector('#search-type:text("block")')
  t.match(await page.textContent('#search-summary'), /^block 3 /)

  // submit: no key yet -> asked once; a good transaction is accepted, a replay rejected
  const tx = node.send(node.dev, '33'.repeat(16), 2)
  await page.fill('#submit-body', JSON.stringify(tx))
  await page.click('#submit-button')
  await page.waitForSelector('#key-form:not([hidden])')
  await page.fill('#key', node.apiKey)
  await page.click('#key-form button')
  await page.click('#submit-button')
  await page.waitForSelector(`#submit-result:text("accepted: ${tx.transaction_id}")`)
  t.equal(await page.evaluate(() => sessionStorage.getItem('ledger-dashboard-api-key')), node.apiKey, 'kept for the session')
  await page.click('#submit-button')
  await page.waitForSelector('#submit-result:has-text("rejected: ")')
  t.match(await page.textContent('#submit-result'), /duplicate/i)
  await page.fill('#submit-body', '{not json')
  await page.click('#submit-button')
  await page.waitForSelector('#submit-result:has-text("not JSON")')
  t.same(pageErrors, [])
})

t.test('requireAuth: the page loads, asks for the key, then shows the node', async (t) => {
  const node = await startDashboardNode({ config: { dashboard: { port: 0, requireAuth: true } } })
  let browser: Browser | undefined
  t.teardown(async () => { await browser?.close(); await node.stop() })
  await node.mine([])
  const base = `http://127.0.0.1:${(node.dash.server.address() as AddressInfo).port}`
  t.equal((await fetch(`${base}/api/chain`)).status, 401, 'reads still need the key')
  browser = await launchChromium()
  const page = await browser.newPage()
  page.setDefaultTimeout(15_000)
  await page.goto(`${base}/`)
  await page.waitForSelector('#key-form:not([hidden])')
  t.match(await page.textContent('#notice'), /API key/)
  await page.fill('#key', node.apiKey)
  await page.click('#key-form button')
  await page.waitForSelector('#t-height:text("1")')
  t.pass('with the key the tiles fill')
})
