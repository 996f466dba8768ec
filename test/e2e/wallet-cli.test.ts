// The command-line wallet against a real devnet node, as an operator types it: keygen, fund
// from the devnet dev account, send back, follow to confirmation, read balances; and every
// refusal printed in one line with exit 2.
import t from 'tap'
import path from 'node:path'
import { writeFileSync } from 'node:fs'
import { DEVNET_DEV_ACCOUNT } from '../../config/networks.ts'
import { walletFromSeed } from '../../core/chain/wallet.ts'
import { writeWalletFile } from '../../core/kernel/wallet-file.ts'
import { LedgerClient, LedgerClientError } from '../../client/index.ts'
import { cleanup, tmpDir } from '../helpers/chain.ts'
import { ledger, startCliNode } from './fixtures/cli-node.ts'

t.test('keygen -> fund from the dev account -> send -> confirmed -> balance', async (t) => {
  const node = await startCliNode({ env: { LEDGER_ADMIN_USER: 'op', LEDGER_ADMIN_PASSWORD: 'operator-e2e-password-1234' } })
  const dir = tmpDir('ledger-e2e-wallets-')
  t.teardown(async () => { await node.stop(); cleanup(node.dataDir); cleanup(dir) })
  const devFile = path.join(dir, 'dev.json')
  writeWalletFile(devFile, walletFromSeed(Buffer.from(DEVNET_DEV_ACCOUNT.seed, 'hex')))
  const keyFile = path.join(node.dataDir, 'api_key.json')
  const at = ['--node', node.dashboard]

  const gen = await ledger(['keygen', '--out', path.join(dir, 'alice.json')])
  t.equal(gen.code, 0, gen.stderr)
  const alice = (JSON.parse(gen.stdout) as { address: string }).address

  const addr = await ledger(['wallet', 'address', '--wallet', path.join(dir, 'alice.json')])
  t.equal(addr.stdout.trim(), alice, 'wallet address prints the address')

  const empty = await ledger(['wallet', 'balance', '--wallet', path.join(dir, 'alice.json'), '--json', ...at])
  t.equal(empty.code, 0, empty.stderr)
  t.match(JSON.parse(empty.stdout), { address: alice, balance: 0, next_nonce: 0, public_key_known: false })

  const fund = await ledger(['tx', 'send', '--wallet', devFile, '--to', alice, '--amount', '25', '--memo', 'welcome', '--api-key-file', keyFile, '--wait', '--json', ...at], { timeoutMs: 120_000 })
  t.equal(fund.code, 0, fund.stderr)
  const funded = JSON.parse(fund.stdout) as { tx_id: string; status: string; confirmations: number; block_height: number; amount: number }
  t.match(funded, { status: 'confirmed', amount: 25 })
  t.ok(funded.confirmations >= 1 && funded.block_height >= 1, 'in a block')

  const status = await ledger(['tx', 'status', funded.tx_id, ...at])
  t.equal(status.code, 0, status.stderr)
  t.match(status.stdout, new RegExp(`^${funded.tx_id}: confirmed in block ${funded.block_height}`))

  // alice's first spend carries her public key (the chain has not seen it): the client adds it
  const back = await ledger(['tx', 'send', '--wallet', path.join(dir, 'alice.json'), '--to', DEVNET_DEV_ACCOUNT.address, '--amount', '5', '--fee', '0.01', '--wait', ...at],
    { env: { LEDGER_API_KEY: (JSON.parse((await import('node:fs')).readFileSync(keyFile, 'utf8')) as { api_key: string }).api_key }, timeoutMs: 120_000 })
  t.equal(back.code, 0, back.stderr)
  t.match(back.stdout, /confirmed in block \d+/)

  const bal = await ledger(['wallet', 'balance', '--wallet', path.join(dir, 'alice.json'), '--json', ...at])
  t.match(JSON.parse(bal.stdout), { balance: 19.99, next_nonce: 1, public_key_known: true }, '25 - 5 - 0.01 fee')

  t.test('refusals are one line, exit 2', async (t) => {
    const overspend = await ledger(['tx', 'send', '--wallet', path.join(dir, 'alice.json'), '--to', DEVNET_DEV_ACCOUNT.address, '--amount', '1000', '--api-key-file', keyFile, ...at])
    t.equal(overspend.code, 2)
    t.match(overspend.stderr, /^ledger: insufficient funds: [0-9a-f]{32} has 19\.99 coin spendable; this transfer needs 1000(\.\d+)? \(1000 \+ fee [\d.]+\)\n$/)
    const noKey = await ledger(['tx', 'send', '--wallet', devFile, '--to', alice, '--amount', '1', ...at], { env: { LEDGER_API_KEY: '' } })
    t.equal(noKey.code, 2)
    t.match(noKey.stderr, /needs the dashboard API key/)
    const badKey = await ledger(['tx', 'send', '--wallet', devFile, '--to', alice, '--amount', '1', '--api-key', 'wrong', ...at])
    t.equal(badKey.code, 2)
    t.match(badKey.stderr, /node refused \(401\): invalid or missing API key/)
    const badTo = await ledger(['tx', 'send', '--wallet', devFile, '--to', 'bob', '--amount', '1', '--api-key', 'x', ...at])
    t.match([badTo.code, badTo.stderr], [2, /--to bob: no such user name and not a 32-hex wallet address/])
    const badPrefix = await ledger(['tx', 'status', 'abc', ...at])
    t.match([badPrefix.code, badPrefix.stderr], [2, /a unique prefix of 8 or more; got 'abc'/])
    const noPrefix = await ledger(['tx', 'status', 'ffffffffff', ...at])
    t.match([noPrefix.code, noPrefix.stderr], [2, /no transaction id starts with ffffffffff/])
    const badAmount = await ledger(['tx', 'send', '--wallet', devFile, '--to', alice, '--amount', '-3', '--api-key', 'x', ...at])
    t.match([badAmount.code, badAmount.stderr], [2, /--amount must be a non-negative coin amount/])
    const noWallet = await ledger(['wallet', 'balance', '--wallet', path.join(dir, 'nope.json'), ...at])
    t.match([noWallet.code, noWallet.stderr], [2, /nope\.json does not exist \(make one with 'ledger keygen/])
    const unknown = await ledger(['tx', 'status', 'ab'.repeat(32), ...at])
    t.match([unknown.code, unknown.stderr], [2, /unknown to the node/])
    const down = await ledger(['wallet', 'balance', '--wallet', devFile, '--node', 'http://127.0.0.1:1'])
    t.match([down.code, down.stderr], [2, /cannot reach the node at http:\/\/127\.0\.0\.1:1/])
  })

  t.test('devnet: the faucet pays an invite signup from the dev account at once', async (t) => {
    const pub = `http://127.0.0.1:${node.ports.port}`
    const auth = { authorization: `Basic ${Buffer.from('op:operator-e2e-password-1234').toString('base64')}`, 'content-type': 'application/json' }
    const invite = await (await fetch(`${pub}/api/admin/invites/create`, { method: 'POST', headers: auth, body: '{}' })).json() as { code: string }
    const signup = await fetch(`${pub}/api/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'devuser', invite_code: invite.code }) })
    t.equal(signup.status, 200)
    const body = await signup.json() as { status: string; address: string; faucet_tx: string | null }
    t.match(body, { status: 'approved', faucet_tx: /^[0-9a-f]{64}$/ }, 'paid, not queued: the dev account is funded from genesis')
    const client = new LedgerClient({ node: node.dashboard })
    const tx = await client.waitForConfirmation(body.faucet_tx as string, { timeoutMs: 60_000 })
    t.equal(tx.sender, DEVNET_DEV_ACCOUNT.address, 'from the dev account, not the miner wallet')
    t.equal((await client.account(body.address)).balance, 100)
  })

  t.test('the dev account in one command, sealed; pay a user by name; follow by prefix', async (t) => {
    const pw = path.join(dir, 'pw')
    writeFileSync(pw, 'dev pass phrase\n')
    const sealed = path.join(dir, 'dev-sealed.json')
    const imp = await ledger(['wallet', 'import', '--seed', DEVNET_DEV_ACCOUNT.seed, '--out', sealed, '--password-file', pw, '--light-kdf'])
    t.equal(imp.code, 0, imp.stderr)
    const noPass = await ledger(['tx', 'send', '--wallet', sealed, '--to', 'devuser', '--amount', '2', '--api-key-file', keyFile, ...at])
    t.match([noPass.code, noPass.stderr], [2, /a passphrase is needed and there is no terminal to ask on: pass --password-file FILE/])
    const before = (await new LedgerClient({ node: node.dashboard }).search('devuser'))
    t.equal(before.type, 'address')
    const sent = await ledger(['tx', 'send', '--wallet', sealed, '--password-file', pw, '--to', 'devuser', '--amount', '2', '--api-key-file', keyFile, ...at])
    t.equal(sent.code, 0, sent.stderr)
    t.match(sent.stderr, /^devuser is [0-9a-f]{32}$/m, 'says whom the name resolved to')
    const txId = /accepted: ([0-9a-f]{64})/.exec(sent.stdout)?.[1] as string
    const status = await ledger(['tx', 'status', txId.slice(0, 8), '--json', ...at])
    t.equal(status.code, 0, status.stderr)
    const s = JSON.parse(status.stdout) as { tx_id: string; recipient: string; amount: number }
    t.match(s, { tx_id: txId, amount: 2 })
    t.equal(s.recipient, before.type === 'address' ? before.address : '', 'paid to the name\'s wallet')
  })

  t.test('status and peers from a shell', async (t) => {
    const st = await ledger(['status', ...at])
    t.equal(st.code, 0, st.stderr)
    t.match(st.stdout, /^height {3}\d+ \(tip \d+ s old\)\nsync {5}idle\npeers {4}0\nmining {3}(on|halted)/)
    const js = JSON.parse((await ledger(['status', '--json', ...at])).stdout) as { chain_height: number; mining: { enabled: boolean } }
    t.ok(js.chain_height >= 1)
    t.equal(js.mining.enabled, true)
    const peers = await ledger(['peers', ...at])
    t.match([peers.code, peers.stdout.trim()], [0, 'no peers (sync idle)'])
  })

  t.test('the client module does the same from a script', async (t) => {
    const client = new LedgerClient({ node: node.dashboard })
    const chain = await client.chain()
    t.equal(chain.chain_id, 'ledger-devnet-1')
    t.equal((await client.account(alice)).balance, 19.99)
    const err = await client.submit({} as never).catch((e: unknown) => e)
    t.ok(err instanceof LedgerClientError && err.status === 401, 'submit without a key is refused locally with 401')
  })
})
