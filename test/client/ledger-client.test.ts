// The typed dashboard client against a hostile or wrong server: bounded replies, non-JSON
// answers, refusals with the node's reason and code, and local checks before any request.
import t from 'tap'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { LedgerClient, LedgerClientError } from '../../client/index.ts'
import { generateWallet } from '../../core/chain/wallet.ts'

async function serve (handler: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }) }
}

const failure = async (p: Promise<unknown>): Promise<LedgerClientError> => {
  const err = await p.then(() => null, (e: unknown) => e)
  if (!(err instanceof LedgerClientError)) throw new Error(`expected a LedgerClientError, got ${String(err)}`)
  return err
}

t.test('a reply over 8 MiB is refused, declared or streamed', async (t) => {
  const chunk = Buffer.alloc(1024 * 1024, 0x20)
  const s = await serve((req, res) => {
    if (req.url === '/api/chain') { res.writeHead(200, { 'content-length': String(64 * 1024 * 1024) }); res.end(); return }
    res.writeHead(200)
    let n = 0
    const more = (): void => { while (n++ < 64) { if (!res.write(chunk)) { res.once('drain', more); return } } res.end() }
    more()
  })
  t.teardown(s.close)
  const c = new LedgerClient({ node: s.url })
  t.match((await failure(c.chain())).message, /reply is \d+ bytes, over/)
  t.match((await failure(c.fees())).message, /reply exceeds 8388608 bytes/)
})

t.test('not JSON, refusals, unreachable, bad input', async (t) => {
  const s = await serve((req, res) => {
    if (req.url === '/api/chain') { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<html>'); return }
    res.writeHead(400, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ status: 'rejected', reason: 'insufficient balance', code: 'TX_ERROR_INSUFFICIENT_BALANCE', error: 'insufficient balance' }))
  })
  t.teardown(s.close)
  const c = new LedgerClient({ node: s.url, apiKey: 'k' })
  t.match((await failure(c.chain())).message, /not JSON; is .* a ledger dashboard/)
  const refused = await failure(c.submit({} as never))
  t.match(refused, { status: 400, code: 'TX_ERROR_INSUFFICIENT_BALANCE', message: 'insufficient balance' })
  t.match(await failure(new LedgerClient({ node: 'http://127.0.0.1:1' }).fees()), { status: 0, message: /cannot reach the node/ })
  t.throws(() => new LedgerClient({ node: 'ftp://x' }), /must be an http/)
  t.throws(() => new LedgerClient({ node: 'nonsense' }), /is not a URL/)
  const w = generateWallet()
  t.match((await failure(c.buildTransfer(w, { to: 'nope', amount: 1 }))).message, /--to must be a 32-hex wallet address/)
  t.match((await failure(c.buildTransfer(w, { to: w.address, amount: 1e-19 }))).message, /at most 18 decimals|--amount/)
  t.match((await failure(c.buildTransfer(w, { to: w.address, amount: 1, memo: 'x'.repeat(513) }))).message, /--memo must be 1-512/)
  t.match((await failure(c.tx('xyz'))).message, /64 hex/)
})

t.test('names and prefixes resolve through /api/search; a search that is no answer is refused', async (t) => {
  const alice = 'ab'.repeat(16)
  const s = await serve((req, res) => {
    const q = new URL(req.url ?? '/', 'http://x').searchParams.get('q')
    const json = (status: number, body: unknown, type?: string): void => {
      res.writeHead(status, { 'content-type': 'application/json', ...(type === undefined ? {} : { 'x-result-type': type }) })
      res.end(JSON.stringify(body))
    }
    if (q === 'alice') return json(200, { address: `${'0'.repeat(8)}${alice}`, wallet_address: alice, name: 'alice' }, 'address')
    if (q === 'contract') return json(200, { address: 'cd'.repeat(20), wallet_address: null }, 'address')
    if (q === 'deadbeef') return json(400, { error: 'more than one transaction id starts with deadbeef: type more characters' })
    if (q === 'cafebabe') return json(200, { tx_id: 'cafebabe'.repeat(8) }, 'tx')
    if (q === '12345678') return json(200, { height: 7 }, 'block')
    if (q === 'html') { res.writeHead(200); res.end('{}'); return }
    json(404, { error: `no user named ${String(q)}` })
  })
  t.teardown(s.close)
  const c = new LedgerClient({ node: s.url })
  t.same(await c.resolveRecipient('alice'), { address: alice, name: 'alice' }, 'the wallet form, not the VM form the address page keys by')
  t.same(await c.resolveRecipient(alice.toUpperCase()), { address: alice }, 'an address needs no search')
  t.match((await failure(c.resolveRecipient('bob'))).message, '--to bob: no such user name and not a 32-hex wallet address')
  t.match((await failure(c.resolveRecipient('contract'))).message, '--to contract is not a user name (it names a contract address)')
  t.match((await failure(c.resolveRecipient('bad name!'))).message, 'must be a 32-hex wallet address or a user name')
  t.equal(await c.resolveTxId('CAFEBABE'), 'cafebabe'.repeat(8))
  t.equal(await c.resolveTxId('0x' + 'ef'.repeat(32)), 'ef'.repeat(32), 'a full id needs no search')
  const ambiguous = await failure(c.resolveTxId('deadbeef'))
  t.match([ambiguous.status, ambiguous.message], [400, 'more than one transaction id starts with deadbeef: type more characters'])
  t.match((await failure(c.resolveTxId('12345678'))).message, 'no transaction id starts with 12345678')
  t.match((await failure(c.resolveTxId('abc'))).message, "a unique prefix of 8 or more; got 'abc'")
  t.match((await failure(c.search('html'))).message, 'no result type')
})

t.test('a script opens a plain or an encrypted wallet file with openWalletFile', async (t) => {
  const { openWalletFile } = await import('../../client/index.ts')
  const { encryptWallet } = await import('../../core/chain/keystore.ts')
  const { writeWalletFile, writeWalletJson } = await import('../../core/kernel/wallet-file.ts')
  const { tmpDir, cleanup } = await import('../helpers/chain.ts')
  const path = await import('node:path')
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const w = generateWallet()
  writeWalletFile(path.join(dir, 'plain.json'), w)
  writeWalletJson(path.join(dir, 'sealed.json'), await encryptWallet(w, 'pw', { n: 1024, r: 8, p: 1 }))
  let asked = 0
  const ask = async (): Promise<string> => { asked++; return 'pw' }
  t.equal((await openWalletFile(path.join(dir, 'plain.json'), ask)).address, w.address)
  t.equal(asked, 0, 'a plain file asks nothing')
  t.equal((await openWalletFile(path.join(dir, 'sealed.json'), ask)).address, w.address)
  t.equal(asked, 1)
})
