// The explorer web page in headless chromium: browse the latest blocks, open a block, a
// transaction and an address, search, and watch it update live as blocks arrive.
import t from 'tap'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from '../helpers/browser.ts'
import { generateWallet } from '../helpers/chain.ts'
import { vmAddressOf } from '../../core/chain/address.ts'
import { startExplorerNode } from '../plugins/explorer/fixtures/explorer-node.ts'
import { NAMED } from '../plugins/explorer/fixtures/names-plugin.ts'
import { ABIS } from '../plugins/explorer/fixtures/abis-plugin.ts'
import { compiled, deployTx, callTx } from '../helpers/contracts.ts'
import { getExample } from '../../core/contracts/index.ts'
import { contractAddress } from '../../core/vm/index.ts'

const NAMES_PLUGIN = { path: path.join(import.meta.dirname, '..', 'plugins', 'explorer', 'fixtures', 'names-plugin.ts') }
const ABIS_PLUGIN = { path: path.join(import.meta.dirname, '..', 'plugins', 'explorer', 'fixtures', 'abis-plugin.ts') }

t.test('browsing the explorer page', async (t) => {
  const node = await startExplorerNode({ plugins: ['storage', 'consensus', 'http', NAMES_PLUGIN, ABIS_PLUGIN, 'explorer'] })
  let browser: Browser | undefined
  t.teardown(async () => { await browser?.close(); await node.stop() })
  const dana = generateWallet()
  NAMED[dana.address] = 'dana'
  const pay = node.send(node.dev, dana.address, 42)
  await node.mine([pay])
  const hostile = '<img src=x onerror="window.pwned=1">'
  const chat = node.send(dana, dana.address, 0, { memo: hostile, fee: 0.01 })
  await node.mine([chat])
  const base = `http://127.0.0.1:${(node.app.server.address() as AddressInfo).port}`

  browser = await launchChromium()
  const page: Page = await browser.newPage()
  page.setDefaultTimeout(10_000)
  const pageErrors: string[] = []
  page.on('pageerror', (err) => pageErrors.push(err.message))

  const consoleErrors: string[] = []
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()) })
  await page.goto(`${base}/explorer`)
  await page.waitForSelector('#blocks tbody tr[data-height="2"]')
  await page.waitForSelector('#stat-network:text("devnet")')
  t.pass('the header names the real network (devnet), not testnet')
  t.equal(await page.getAttribute('.site-nav a[aria-current="page"]', 'href'), '/explorer', 'the shared navigation')
  t.same(await page.$$eval('#blocks tbody tr', (rows) => rows.map((r) => (r as HTMLElement).dataset.height)), ['2', '1', '0'], 'latest blocks, newest first')
  await page.waitForSelector('#stat-height:text("2")')
  await page.waitForSelector('#live-state[data-state="live"]')
  t.pass('stats shown and polling')

  // live update: a block mined while the page is open appears without a reload
  const third = await node.mine([])
  await page.waitForSelector('#blocks tbody tr[data-height="3"]')
  await page.waitForSelector('#stat-height:text("3")')
  t.equal(await page.getAttribute('#blocks tbody tr[data-height="3"] a.mono', 'title'), third.hash, 'the new block row carries its hash')

  // open a block, then its transaction, then an address
  await page.click('#blocks tbody tr[data-height="1"] a')
  await page.waitForSelector('#block-detail[data-height="1"]')
  t.equal(await page.textContent('#block-tx-count'), '2')
  const txRow = page.locator(`#block-txs tr[data-tx-id="${pay.transaction_id}"]`)
  t.equal(await txRow.locator('td').nth(3).textContent(), 'dana', 'the recipient is shown by name')
  await txRow.locator('td').first().locator('a').click()
  await page.waitForSelector('#tx-detail')
  t.equal(await page.textContent('#tx-id'), pay.transaction_id)
  t.equal(await page.textContent('#tx-status'), 'confirmed')
  t.equal(await page.textContent('#tx-confirmations'), '3')
  t.match(await page.textContent('#tx-amount'), /^42 coin$/)
  await page.click('#tx-to a')
  await page.waitForSelector('#address-detail')
  t.equal(await page.textContent('#address-canonical'), vmAddressOf(dana.address), 'the canonical 40-hex form')
  t.equal(await page.textContent('#address-name'), 'dana')
  t.equal(await page.textContent('#address-balance'), '41.99 coin')
  t.equal(await page.locator('#address-txs tbody tr').count(), 2)

  // chat text is shown as text, never as markup
  await page.goto(`${base}/explorer#/tx/${chat.transaction_id}`)
  await page.waitForSelector('#tx-memo')
  t.equal(await page.textContent('#tx-memo'), hostile)
  t.equal(await page.locator('#tx-memo img').count(), 0)
  t.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined)

  // search: height, transaction id, address (40-hex, upper case, 0x), nonsense
  const search = async (q: string) => {
    await page.fill('#search-input', q)
    await page.click('#search-button')
  }
  await search('2')
  await page.waitForSelector('#block-detail[data-height="2"]')
  await search(chat.transaction_id.toUpperCase())
  await page.waitForFunction((id) => document.getElementById('tx-id')?.textContent === id, chat.transaction_id)
  await search(`0x${vmAddressOf(dana.address).toUpperCase()}`)
  await page.waitForSelector('#address-detail #address-name:text("dana")')
  await search(chat.transaction_id.slice(0, 16))
  await page.waitForFunction((id) => document.getElementById('tx-id')?.textContent === id, chat.transaction_id)
  t.pass('the 16-character id the chat shows finds the transaction')
  await search('DANA')
  await page.waitForSelector('#address-detail #address-name:text("dana")')
  t.pass('a user name finds the address')
  await search(third.hash)
  await page.waitForSelector('#block-detail[data-height="3"]')
  t.pass('a block hash finds the block')
  await search('hello world')
  await page.waitForSelector('#search-error:not([hidden])')
  t.match(await page.textContent('#search-error'), /Nothing matches "hello world"/)
  await search('nobody')
  await page.waitForSelector('#search-error:has-text("no user named nobody")')
  t.pass('search reaches blocks, transactions and addresses, and explains a miss')
  await page.goto(`${base}/explorer#/tx/${chat.transaction_id.slice(0, 16)}`)
  await page.waitForFunction((id) => document.getElementById('tx-id')?.textContent === id, chat.transaction_id)
  t.match(page.url(), new RegExp(`#/tx/${chat.transaction_id}$`), 'a link with a short id opens the full one')

  // a pending transaction turns confirmed on its own when a block includes it
  const pending = node.send(node.dev, dana.address, 1)
  node.resolve('mempool').add(pending)
  await page.goto(`${base}/explorer#/`)
  await page.click('#stat-mempool-link')
  await page.waitForSelector(`#mempool-txs tr[data-tx-id="${pending.transaction_id}"]`)
  t.equal(await page.getAttribute('#mempool-panel', 'data-count'), '1', 'the mempool page lists what is pending')
  t.equal(await page.locator(`#mempool-txs tr[data-tx-id="${pending.transaction_id}"] td`).nth(3).textContent(), 'dana')
  await page.goto(`${base}/explorer#/tx/${pending.transaction_id}`)
  await page.waitForSelector('#tx-detail[data-status="pending"]')
  t.equal(await page.textContent('#tx-confirmations'), '0')
  await node.mine()
  await page.waitForSelector('#tx-detail[data-status="confirmed"]')
  t.equal(await page.textContent('#tx-block'), '#4')

  // paging through blocks, and a block that does not exist yet
  await page.goto(`${base}/explorer#/block/99`)
  await page.waitForSelector('#view-message:has-text("no such block")')
  await page.goto(`${base}/explorer#/`)
  await page.waitForSelector('#blocks tbody tr[data-height="4"]')
  t.equal(await page.isDisabled('#blocks-panel .pager .newer'), true, 'already on the newest page')
  t.equal(await page.isDisabled('#blocks-panel .pager .older'), true, 'five blocks fit one page')

  // receipt logs: decoded with the ABI when the node knows the contract, raw otherwise
  const counter = compiled(getExample('counter')?.source ?? '')
  const mempool = node.resolve('mempool')
  const devVm = vmAddressOf(node.dev.address)
  const known = contractAddress(devVm, 0n)
  const unknown = contractAddress(devVm, 1n)
  ABIS[known] = counter.abi
  const nonce = mempool.nextNonce(node.dev.address)
  await node.mine([deployTx(node.params, node.dev, nonce, counter.bytecode_hex, { withKey: false }), deployTx(node.params, node.dev, nonce + 1, counter.bytecode_hex, { withKey: false })])
  const incKnown = callTx(node.params, node.dev, nonce + 2, known, counter.calldata('increment', 3), { withKey: false })
  const incUnknown = callTx(node.params, node.dev, nonce + 3, unknown, counter.calldata('increment', 4), { withKey: false })
  await node.mine([incKnown, incUnknown])
  await page.goto(`${base}/explorer#/tx/${incKnown.transaction_id}`)
  await page.waitForSelector('#tx-logs li.log')
  t.equal(await page.getAttribute('#tx-logs li.log', 'data-decoded'), 'true')
  t.match(await page.textContent('#tx-logs li.log'), /^Incremented\(by=3, total=3\) from /, 'decoded with the ABI')
  await page.goto(`${base}/explorer#/tx/${incUnknown.transaction_id}`)
  await page.waitForSelector('#tx-logs li.log[data-decoded="false"]')
  t.match(await page.textContent('#tx-logs li.log'), new RegExp(`^topics ${counter.abi.events[0]?.topic}, 0{63}4 data 0{63}4 from `), 'raw topics and data without one')

  t.same(consoleErrors.filter((e) => !/status of 40[04]/.test(e)), [], 'no console errors beyond the answers to misses (400 bad search, 404 unknown block or ABI)')
  t.same(pageErrors, [], 'no script errors')
})
