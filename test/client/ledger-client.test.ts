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
