// The explorer's block view re-verifies the attestation in headless chromium with the node's
// own libraries served as ES modules: "beacon-verified in your browser" for a real block, and the
// failed rule named when the served envelope is altered on the way (intercepted response).
import t from 'tap'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from '../helpers/browser.ts'
import { startExplorerNode } from '../plugins/explorer/fixtures/explorer-node.ts'
import { devnetRound } from '../../core/entropy/devnet-beacon.ts'
import { makeAttestation, mineBlock, testParams } from '../helpers/chain.ts'
import type { BlockDetail } from '../../core/views/block-view.ts'

t.test('the block view shows the attestation and verifies it in the browser', async (t) => {
  const node = await startExplorerNode({ plugins: ['storage', 'consensus', 'http', 'explorer'] })
  let browser: Browser | undefined
  t.teardown(async () => { await browser?.close(); await node.stop() })
  const first = await node.mine([])
  await node.mine([])
  const base = `http://127.0.0.1:${(node.app.server.address() as AddressInfo).port}`

  browser = await launchChromium()
  const page: Page = await browser.newPage()
  page.setDefaultTimeout(30_000)
  const pageErrors: string[] = []
  page.on('pageerror', (err) => pageErrors.push(err.message))

  await page.goto(`${base}/explorer#/block/1`)
  await page.waitForSelector('#block-attestation')
  const env = first.quantum_signature!.qrng_attestation
  t.equal(await page.textContent('#attestation-source'), env.source)
  t.equal(await page.textContent('#attestation-rounds'), `beacon-devnet #${env.beacons[0]!.round}`)
  t.equal(await page.textContent('#attestation-commitment'), env.commitment)
  t.match(await page.textContent('#attestation-health'), /^monobit 0\.\d{4}, Fano \d\.\d{4}, pool \d+ bytes$/)
  await page.waitForSelector('#attestation-badge[data-state="verified"]')
  t.equal(await page.textContent('#attestation-badge'), 'beacon-verified in your browser')
  t.match(await page.getAttribute('#attestation-badge', 'title'), /beacon-devnet round \d+ \(BLS\), derivation, commitment, health/)

  t.equal(await page.textContent('#block-evidence [data-evidence]'), 'beacon-verified', 'the block says what its attestation proves')

  // the list: every block labelled by what its attestation proves; only beacon evidence is green
  await page.goto(`${base}/explorer#/`)
  await page.waitForSelector('#blocks tr[data-height="2"]')
  t.equal(await page.textContent('#blocks tr[data-height="2"] [data-evidence]'), 'beacon-verified')
  t.match(await page.getAttribute('#blocks tr[data-height="2"] [data-evidence]', 'class'), /\bok\b/)
  t.equal(await page.textContent('#blocks tr[data-height="0"] [data-evidence]'), 'genesis (no attestation)')
  // testnet with no beacon reachable: blocks carry no evidence, and the badge says so (not green)
  await page.route('**/api/explorer/blocks*', async (route) => {
    const res = await route.fetch()
    const body = await res.json() as { blocks: Array<{ height: number; entropy_evidence: string | null }> }
    for (const b of body.blocks) if (b.height > 0) b.entropy_evidence = 'no-evidence'
    await route.fulfill({ response: res, json: body })
  })
  await page.goto(`${base}/explorer#/blocks/0`)
  await page.reload()
  await page.waitForSelector('#blocks tr[data-height="2"] [data-evidence="no-evidence"]')
  t.equal(await page.textContent('#blocks tr[data-height="2"] [data-evidence]'), 'no evidence')
  t.notMatch(await page.getAttribute('#blocks tr[data-height="2"] [data-evidence]', 'class'), /\bok\b/, 'no green badge without evidence')
  t.match(await page.getAttribute('#blocks tr[data-height="2"] [data-evidence]', 'title'), /nothing shows where the bytes came from/)
  t.notOk((await page.textContent('#blocks') ?? '').includes('attested'), 'no "attested" badge')
  await page.unroute('**/api/explorer/blocks*')

  // the same block, served with another round's signature (randomness kept consistent)
  const alter = async (edit: (b: BlockDetail) => void): Promise<string> => {
    await page.unroute('**/api/explorer/block/2')
    await page.route('**/api/explorer/block/2', async (route) => {
      const res = await route.fetch()
      const body = await res.json() as BlockDetail
      edit(body)
      await route.fulfill({ response: res, json: body })
    })
    await page.goto(`${base}/explorer#/block/1`)
    await page.waitForSelector('#block-detail[data-height="1"]')
    await page.goto(`${base}/explorer#/block/2`)
    await page.waitForSelector('#block-detail[data-height="2"] #attestation-badge[data-state="failed"]')
    return await page.textContent('#attestation-badge') ?? ''
  }
  t.match(await alter((b) => {
    const e = b.quantum_signature!.qrng_attestation.beacons[0]!
    const other = devnetRound(e.round - 1)
    e.signature = other.signature
    e.randomness = other.randomness
  }), /^not verified: beacon-devnet round \d+: BLS signature does not verify under the published key$/)
  t.match(await alter((b) => {
    const e = b.quantum_signature!.qrng_attestation
    e.local_entropy = e.local_entropy.replace(/^./, (c) => c === '0' ? '1' : '0')
  }), /^not verified: seed and proof are not derived/)
  t.same(pageErrors, [], 'no script errors')
})

t.test('testnet with no beacon reachable: blocks say they carry no evidence, nowhere "attested" or green', async (t) => {
  // the testnet rule: blocks without beacon evidence are accepted (minBeacons 0)
  const params = testParams({ minBeacons: 0 })
  const node = await startExplorerNode({ plugins: ['storage', 'consensus', 'http', 'explorer'], params })
  let browser: Browser | undefined
  t.teardown(async () => { await browser?.close(); await node.stop() })
  const tip = node.resolve('chain').tip()
  const ts = Math.max(tip.timestamp + 1, Math.floor(Date.now() / 1000) - 30)
  const block = mineBlock(params, { hash: tip.hash, height: tip.height, timestamp: tip.timestamp }, { timestamp: ts, attestation: makeAttestation(ts, { source: 'self-hosted', params }) })
  t.equal((await node.resolve('chain').processBlock(block, 'test')).status, 'connected')
  const base = `http://127.0.0.1:${(node.app.server.address() as AddressInfo).port}`
  const listed = await (await fetch(`${base}/api/explorer/blocks`)).json() as { blocks: Array<{ height: number; quantum_verified: boolean; entropy_evidence: string }> }
  t.match(listed.blocks[0], { height: 1, quantum_verified: true, entropy_evidence: 'no-evidence' }, 'SPEC\'s field keeps its value; the evidence says what it proves')

  browser = await launchChromium()
  const page = await browser.newPage()
  page.setDefaultTimeout(30_000)
  const pageErrors: string[] = []
  page.on('pageerror', (err) => pageErrors.push(err.message))
  await page.goto(`${base}/explorer#/`)
  await page.waitForSelector('#blocks tr[data-height="1"] [data-evidence]')
  t.equal(await page.textContent('#blocks tr[data-height="1"] [data-evidence]'), 'no evidence')
  t.notMatch(await page.getAttribute('#blocks tr[data-height="1"] [data-evidence]', 'class'), /\bok\b/, 'not green')
  await page.goto(`${base}/explorer#/block/1`)
  await page.waitForSelector('#attestation-badge[data-state="verified"]')
  t.equal(await page.textContent('#attestation-rounds'), 'none: no evidence')
  t.equal(await page.textContent('#block-evidence [data-evidence]'), 'no evidence')
  t.equal(await page.textContent('#attestation-badge'), 'self-consistent in your browser; no evidence', 'the browser checked the derivation and commitment, and says nothing more was proven')
  t.notMatch(await page.getAttribute('#attestation-badge', 'class'), /\bok\b/, 'not green')
  t.notOk((await page.textContent('#view') ?? '').includes('attested'), 'no "attested" anywhere on the page')
  t.same(pageErrors, [])
})
