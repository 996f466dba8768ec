// The playground web page in headless chromium: sign in with a login token, see a compile
// error at its line and column, deploy an example, call its methods through the forms the
// ABI generates, and watch receipts and logs arrive as a miner includes the transactions.
// Then sign in with an API token instead.
import t from 'tap'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from '../helpers/browser.ts'
import { startPlaygroundNode } from '../plugins/playground/fixtures/playground-node.ts'

const BROKEN = 'contract C {\n    storage n: uint @ 0;\n    pub fn f() -> uint {\n        return x;\n    }\n}\n'

t.test('using the playground page', async (t) => {
  const node = await startPlaygroundNode()
  let browser: Browser | undefined
  let miner: NodeJS.Timeout | undefined
  t.teardown(async () => {
    clearInterval(miner)
    await browser?.close()
    await node.stop()
  })
  await node.fundFaucet()
  const alice = await node.join('alice')
  await node.mine()
  const loginToken = node.resolve('accounts').user('alice')?.login_token ?? ''
  const base = `http://127.0.0.1:${(node.app.server.address() as AddressInfo).port}`

  // a miner for the test: a block whenever transactions wait
  const mempool = node.resolve('mempool')
  let mining = false
  miner = setInterval(() => {
    if (mining || mempool.size === 0) return
    mining = true
    node.mine().catch((err: unknown) => { t.fail(`mining failed: ${String(err)}`) }).finally(() => { mining = false })
  }, 200)

  browser = await launchChromium()
  const page: Page = await browser.newPage()
  page.setDefaultTimeout(15_000)
  const pageErrors: string[] = []
  page.on('pageerror', (err) => pageErrors.push(err.message))

  const consoleErrors: string[] = []
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()) })

  // sign in with the login token
  await page.goto(`${base}/playground`)
  await page.waitForSelector('#login-panel:not([hidden])')
  t.same(consoleErrors, [], 'a logged-out page logs no error (no 401 from the contract list)')
  t.equal(await page.getAttribute('.site-nav a[aria-current="page"]', 'href'), '/playground', 'the shared navigation')
  const RED = 'rgb(180, 35, 24)'
  t.not(await page.$eval('#login-name', (el) => getComputedStyle(el).borderTopColor), RED, 'no red "invalid" border before the user typed')
  t.equal(await page.isHidden('#workspace'), true, 'nothing to use before signing in')
  await page.fill('#login-name', 'alice')
  await page.fill('#login-token', 'wrong-token')
  await page.click('#login-button')
  await page.waitForSelector('#login-error:not([hidden])')
  t.equal(await page.textContent('#login-error'), 'unknown name or wrong token')
  await page.fill('#login-token', loginToken)
  await page.click('#login-button')
  await page.waitForSelector('#workspace:not([hidden])')
  t.equal(await page.textContent('#account-name'), 'alice')
  t.equal(await page.textContent('#account-vm'), `0x${alice.vm_address}`)
  t.match(await page.textContent('#account-balance'), /^100 coin$/)

  // the examples, and the counter loaded to start with
  t.same(await page.$$eval('#example-select option', (os) => os.map((o) => (o as HTMLOptionElement).value)), ['', 'counter', 'guestbook', 'multisig'])
  t.equal(await page.inputValue('#example-select'), 'counter')
  t.match(await page.inputValue('#source'), /^\/\/ A counter anyone can increase/)
  t.equal(await page.isVisible('#example-description'), true, 'the example explains itself')

  // a compile error points at its line and column
  await page.fill('#source', BROKEN)
  t.equal(await page.isHidden('#example-description'), true, 'the description goes with the example source')
  await page.click('#compile-button')
  await page.waitForSelector('#compile-error:not([hidden])')
  t.equal(await page.textContent('#compile-error'), "Compile error at 4:16: unknown identifier 'x'")
  t.equal(await page.getAttribute('#compile-error', 'data-line'), '4')
  t.equal(await page.getAttribute('#compile-error', 'data-column'), '16')
  t.equal(await page.getAttribute('#gutter .error-line', 'data-line'), '4', 'the gutter marks the line')
  const caret = await page.$eval('#source', (el) => (el as HTMLTextAreaElement).selectionStart)
  t.equal(caret, BROKEN.indexOf('x;'), 'the caret sits on the error')
  await page.click('#deploy-button')
  await page.waitForSelector('#compile-error:not([hidden])')
  t.equal(await page.locator('#activity li').count(), 0, 'a source that does not compile is not deployed')

  // compile and deploy the counter
  await page.selectOption('#example-select', 'guestbook')
  await page.selectOption('#example-select', 'counter')
  await page.waitForSelector('#compile-error', { state: 'hidden' })
  await page.click('#compile-button')
  await page.waitForSelector('#compile-summary')
  t.match(await page.textContent('#compile-summary'), /Counter: \d+ bytes of bytecode, 3 methods/)
  t.equal(await page.locator('#abi-methods li').count(), 3)
  t.match(await page.textContent('#compile-result'), /count: uint @ slot 0.*owner: address @ slot 1.*Incremented\(uint,uint\)/s, 'storage slots and event signatures from the ABI')
  await page.click('#deploy-button')
  const deployItem = page.locator('#activity li[data-kind="deploy"]')
  await deployItem.waitFor()
  await page.waitForSelector('#activity li[data-kind="deploy"][data-status="confirmed"]')
  t.equal(await deployItem.getAttribute('data-success'), 'true')
  const counterAddr = (await deployItem.locator('dd.contract').textContent()) ?? ''
  t.match(counterAddr, /^0x[0-9a-f]{40}$/)
  await page.waitForSelector(`#contracts tbody tr[data-status="deployed"][data-address="${counterAddr}"]`)
  await page.waitForSelector('#interact-panel:not([hidden])')
  t.equal(await page.textContent('#contract-addr'), counterAddr, 'the new contract opens for calls')
  t.same(await page.$$eval('#methods form.method', (fs) => fs.map((f) => (f as HTMLElement).dataset.method)), ['increment', 'get', 'reset'])

  /** a read-only method: answered at once by the query, no transaction */
  const read = async (method: string, args: Record<string, string> = {}) => {
    const form = page.locator(`#methods form[data-method="${method}"]`)
    t.equal(await form.getAttribute('data-mode'), 'read', `${method} is read-only`)
    for (const [name, value] of Object.entries(args)) await form.locator(`[name="${name}"]`).fill(value)
    const calls = await page.locator('#activity li').count()
    await form.locator('.query-result').evaluate((el) => { el.removeAttribute('data-success'); (el as HTMLElement).hidden = true })
    await form.locator('button[type="submit"]').click()
    await form.locator('.query-result[data-success]').waitFor()
    t.equal(await page.locator('#activity li').count(), calls, `${method}: no transaction was sent`)
    return (await form.locator('.query-result output').textContent()) ?? ''
  }

  /** submits a method form; returns the activity item of the call once its receipt arrived */
  const call = async (method: string, args: Record<string, string> = {}) => {
    const form = page.locator(`#methods form[data-method="${method}"]`)
    for (const [name, value] of Object.entries(args)) await form.locator(`[name="${name}"]`).fill(value)
    const before = await page.locator('#activity li[data-kind="call"]').count()
    await form.locator('button[type="submit"]').click()
    await page.waitForFunction((n) => document.querySelectorAll('#activity li[data-kind="call"]').length > n, before)
    const item = page.locator('#activity li[data-kind="call"]').first()
    await page.waitForSelector('#activity li[data-kind="call"]:first-child[data-status="confirmed"]')
    return item
  }

  const inc = await call('increment', { by: '5' })
  t.equal(await inc.getAttribute('data-success'), 'true')
  t.equal(await inc.locator('dd.return').textContent(), '5')
  t.equal(await inc.locator('li.log').textContent(), 'Incremented(by=5, total=5)', 'the log decoded with the ABI')
  t.equal(await (await call('increment', { by: '0x10' })).locator('dd.return').textContent(), '21')
  const zero = await call('increment', { by: '0' })
  t.equal(await zero.getAttribute('data-success'), 'false')
  t.equal(await zero.locator('dd.revert-reason').textContent(), 'increment must be positive')
  const pendingBefore = mempool.size
  t.equal(await read('get'), '21', 'get() answers at once, free')
  t.equal(mempool.size, pendingBefore)
  const reset = await call('reset')
  t.equal(await reset.locator('dd.return').textContent(), '(nothing)')
  t.equal(await reset.locator('li.log').textContent(), `Reset(by=0x${alice.vm_address}, previous=21)`)

  // typed inputs: the browser refuses a uint that is not a number, the node a bad value
  const incForm = page.locator('#methods form[data-method="increment"]')
  await incForm.locator('[name="by"]').fill('lots')
  const calls = await page.locator('#activity li[data-kind="call"]').count()
  await incForm.locator('button[type="submit"]').click()
  t.equal(await incForm.locator('[name="by"]').evaluate((el) => (el as HTMLInputElement).validity.patternMismatch), true)
  await incForm.locator('[name="by"]').fill('1')
  await incForm.locator('input.value').fill('-1')
  await incForm.locator('button[type="submit"]').click()
  await incForm.locator('.form-error:not([hidden])').waitFor()
  t.match(await incForm.locator('.form-error').textContent(), /^value must be a non-negative coin amount/)
  t.equal(await page.locator('#activity li[data-kind="call"]').count(), calls, 'neither was sent')
  await incForm.locator('input.value').fill('0')

  // a second contract: the guestbook, with bytes32 and address values
  await page.selectOption('#example-select', 'guestbook')
  await page.click('#deploy-button')
  await page.waitForSelector('#activity li[data-kind="deploy"]:first-child[data-status="confirmed"]')
  await page.waitForFunction(() => document.getElementById('contract-name')?.textContent === 'Guestbook')
  t.equal(await page.locator('#contracts tbody tr').count(), 2)
  t.equal(await (await call('sign', { message: 'hello from chromium' })).locator('dd.return').textContent(), '0')
  t.match(await read('message', { index: '0' }), /\("hello from chromium"\)$/)
  t.equal(await read('author', { index: '0' }), `0x${alice.vm_address}`)
  t.equal(await read('entries_by', { who: alice.vm_address }), '1')

  // back to the counter from the list
  await page.click(`#contracts tbody tr[data-address="${counterAddr}"] button.open`)
  await page.waitForFunction(() => document.getElementById('contract-name')?.textContent === 'Counter')
  t.equal(await read('get'), '0', 'reset earlier')

  // a reload keeps the transactions list and the open contract
  const items = await page.locator('#activity > li').count()
  await page.reload()
  await page.waitForSelector('#workspace:not([hidden])')
  await page.waitForFunction(() => document.getElementById('contract-name')?.textContent === 'Counter')
  t.equal(await page.textContent('#contract-addr'), counterAddr, 'the open contract is open again')
  t.equal(await page.locator('#activity > li').count(), items, 'the transactions are listed again')
  await page.waitForFunction((n) => document.querySelectorAll('#activity > li[data-status="confirmed"]').length === n, items)
  t.equal(await page.locator('#activity li.log', { hasText: 'Reset(by=' }).textContent(), `Reset(by=0x${alice.vm_address}, previous=21)`, 'with their receipts and decoded logs')

  // a phone: nothing wider than the screen
  await page.setViewportSize({ width: 390, height: 844 })
  const wide = await page.evaluate(() => Array.from(document.querySelectorAll('body *')).filter((el) => el.getBoundingClientRect().right > 391 && (el as HTMLElement).offsetParent !== null).map((el) => `${el.tagName}#${el.id}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`).slice(0, 15))
  t.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, `no horizontal overflow at 390 px ${JSON.stringify(wide)}`)
  await page.setViewportSize({ width: 1280, height: 800 })

  // sign out, then in with an API token
  await page.click('#logout-button')
  await page.waitForSelector('#login-panel:not([hidden])')
  const token = await node.apiToken('alice')
  await page.fill('#api-token', `ldg_${'0'.repeat(64)}`)
  await page.click('#token-button')
  await page.waitForSelector('#login-error:not([hidden])')
  t.match(await page.textContent('#login-error'), /not accepted/)
  await page.fill('#api-token', token)
  await page.click('#token-button')
  await page.waitForSelector('#workspace:not([hidden])')
  t.equal(await page.textContent('#account-name'), 'alice')
  t.equal(await page.locator('#contracts tbody tr').count(), 2, 'the token acts as alice: her contracts')

  t.same(pageErrors, [], 'no script errors')
})
