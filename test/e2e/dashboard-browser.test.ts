// The dashboard page in headless chromium: tiles and uPlot charts fill from the node's API,
// recent blocks, peers and node events render, search finds a block, the pre-signed transaction form asks
// for the API key once (kept in sessionStorage) and reports accepted / rejected; the page
// carries the node's page security headers; with requireAuth the page asks for the key.
import t from 'tap'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from '../helpers/browser.ts'
import { startDashboardNode } from '../plugins/dashboard/fixtures/dashboard-node.ts'
import { PAGE_HEADERS } from '../../plugins/http/web-page.ts'
import { mineBlock } from '../helpers/chain.ts'
import { fake } from '../plugins/dashboard/fixtures/node-services-plugin.ts'

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
  t.equal(await page.locator('.chart canvas').count(), 6, 'six uPlot charts')
  t.equal(await page.getAttribute('#blocks tr[data-height="5"] [data-evidence]', 'data-evidence'), 'beacon-verified', 'devnet blocks quote the devnet beacon')
  t.equal(await page.textContent('#t-entropy'), 'no evidence', 'the stand-in provider serves self-hosted bytes: nothing backs them')
  t.equal(await page.isVisible('#key-form'), false, 'no key asked while none is needed')

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

/** Everything the layout promises, read in the page: no horizontal overflow, tiles in full rows,
 *  charts whose domains come from their points and whose y labels fit their axis. */
async function layoutFacts (page: Page) {
  return await page.evaluate(() => {
    const tiles = Array.from(document.querySelectorAll<HTMLElement>('.tile'), (e) => e.offsetTop)
    const rows = new Map<number, number>()
    for (const top of tiles) rows.set(top, (rows.get(top) ?? 0) + 1)
    const measure = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D
    interface Axis { _values: string[] | null; _size: number; font: [string, number] | string }
    interface Chart { data: number[][]; scales: Record<string, { min: number; max: number }>; axes: Axis[]; width: number; root: HTMLElement }
    const charts = (window as unknown as { ledgerDashboard: { charts: Record<string, Chart> } }).ledgerDashboard.charts
    return {
      scrollWidth: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
      tileRows: [...rows.values()],
      charts: Object.fromEntries(Object.entries(charts).map(([name, u]) => {
        const axis = u.axes[1] as Axis
        measure.font = '12px system-ui, sans-serif'
        const widest = Math.max(0, ...(axis._values ?? []).map((v) => measure.measureText(v).width))
        return [name, {
          xs: u.data[0] ?? [], ys: u.data[1] ?? [],
          x: { min: u.scales.x!.min, max: u.scales.x!.max },
          y: { min: u.scales.y!.min, max: u.scales.y!.max },
          labels: axis._values, widestLabel: widest, axisSize: axis._size,
          width: u.width, box: (u.root.parentElement as HTMLElement).clientWidth
        }]
      }))
    }
  })
}

t.test('layout at 390 and 1280 px: no overflow, full tile rows, charts of real points, labels that fit', async (t) => {
  const node = await startDashboardNode({ withServices: true, config: { dashboard: { port: 0, sampleSeconds: 0.2 } } })
  let browser: Browser | undefined
  t.teardown(async () => { await browser?.close(); await node.stop() })
  fake.peers = fake.peers.map((p, i) => ({ ...p, direction: i === 0 ? 'inbound' : 'outbound' }))
  for (let i = 0; i < 8; i++) await node.mine([])
  const base = `http://127.0.0.1:${(node.dash.server.address() as AddressInfo).port}`
  // the intervals the chart must show: heights 2.., never block 1's gap after genesis
  const blocks = (await (await fetch(`${base}/api/blocks?limit=100`)).json() as { blocks: Array<{ height: number; timestamp: number }> }).blocks
  const byHeight = new Map(blocks.map((b) => [b.height, b.timestamp]))
  const genesisGap = (byHeight.get(1) as number) - (byHeight.get(0) as number)
  const intervals = blocks.filter((b) => b.height >= 2).map((b) => b.timestamp - (byHeight.get(b.height - 1) as number)).reverse()

  browser = await launchChromium()
  for (const width of [390, 1280]) {
    await t.test(`${width} px`, async (t) => {
      const page = await (browser as Browser).newPage({ viewport: { width, height: 900 } })
      page.setDefaultTimeout(15_000)
      const pageErrors: string[] = []
      page.on('pageerror', (err) => pageErrors.push(err.message))
      await page.goto(`${base}/`)
      await page.waitForSelector('#t-height:text("8")')
      await page.waitForFunction(() => {
        const c = (window as unknown as { ledgerDashboard?: { charts: Record<string, { data: number[][] }> } }).ledgerDashboard?.charts
        return c !== undefined && Object.values(c).every((u) => (u.data[0]?.length ?? 0) > 0)
      })
      const f = await layoutFacts(page)
      t.ok(f.scrollWidth <= f.viewport, `no horizontal overflow (${f.scrollWidth} <= ${f.viewport})`)
      t.same(f.tileRows, width === 1280 ? [4, 4] : [2, 2, 2, 2], 'tiles in full rows')
      t.equal(await page.isVisible('#key-form'), false, 'no key form while no key is needed')
      t.same(f.charts.interval!.ys, intervals, 'intervals from height 2: the genesis gap is left out')
      t.ok(genesisGap > 1000, 'the gap left out is the chain\'s age, not an interval')
      for (const [name, c] of Object.entries(f.charts)) {
        const ys = c.ys.filter((v): v is number => typeof v === 'number')
        t.ok(c.xs.length > 0 && ys.length > 0, `${name}: real points`)
        t.ok(c.y.min <= Math.min(...ys) && c.y.max >= Math.max(...ys), `${name}: the y domain holds every point`)
        t.ok(c.y.max <= Math.max(...ys) * 1.2 + 1, `${name}: the y domain comes from the points (max ${c.y.max}, points up to ${Math.max(...ys)})`)
        t.ok(c.x.min <= (c.xs[0] as number) && c.x.max >= (c.xs.at(-1) as number), `${name}: the x domain holds every point`)
        t.ok(c.widestLabel + 15 <= c.axisSize, `${name}: y labels ${JSON.stringify(c.labels)} fit the axis (${Math.ceil(c.widestLabel)} + ticks <= ${c.axisSize})`)
        t.ok(c.width <= c.box, `${name}: the chart fits its panel (${c.width} <= ${c.box})`)
      }
      t.same(pageErrors, [])
      await page.close()
    })
  }
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
  await page.setViewportSize({ width: 390, height: 800 })
  await page.goto(`${base}/`)
  await page.waitForSelector('#key-form:not([hidden])')
  t.match(await page.textContent('#notice'), /API key/)
  t.equal(await page.isVisible('#key-form'), true, 'the node refused a read: the page asks for the key')
  t.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'the key form fits 390 px')
  await page.fill('#key', node.apiKey)
  await page.click('#key-form button')
  await page.waitForSelector('#t-height:text("1")')
  t.pass('with the key the tiles fill')
})
