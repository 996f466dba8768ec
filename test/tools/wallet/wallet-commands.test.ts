// The command-line wallet's key side as a user types it, parsed in-process (buildCli): import
// devnet's dev account from its seed, export its backup phrase, import that phrase into an
// encrypted file, open it with --password-file; refusals are one-line UsageErrors.
import t from 'tap'
import type { Test } from 'tap'
import path from 'node:path'
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { PassThrough } from 'node:stream'
import { buildCli, commandLine, UsageError } from '../../../core/kernel/cli.ts'
import { DEVNET_DEV_ACCOUNT } from '../../../config/networks.ts'
import { getPassphrase } from '../../../tools/wallet/passphrase.ts'
import { tmpDir, cleanup } from '../../helpers/chain.ts'

async function run (argv: string[]): Promise<void> {
  await buildCli(argv, await commandLine(argv)).exitProcess(false).parseAsync()
}

async function output (t: Test, argv: string[]): Promise<{ out: string; err: string }> {
  const log = t.capture(console, 'log')
  const error = t.capture(console, 'error')
  await run(argv)
  return { out: log().map((c) => c.args.join(' ')).join('\n'), err: error().map((c) => c.args.join(' ')).join('\n') }
}

t.test('seed -> file -> phrase -> encrypted file -> the same wallet', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const plain = path.join(dir, 'dev.json')
  const imported = JSON.parse((await output(t, ['wallet', 'import', '--seed', DEVNET_DEV_ACCOUNT.seed, '--out', plain])).out) as { address: string; encrypted: boolean }
  t.match(imported, { address: DEVNET_DEV_ACCOUNT.address, encrypted: false })
  t.equal(statSync(plain).mode & 0o777, 0o600)

  const phrase = (await output(t, ['wallet', 'export-phrase', '--wallet', plain])).out.trim()
  t.equal(phrase.split(' ').length, 24)
  const phraseFile = path.join(dir, 'phrase.txt')
  writeFileSync(phraseFile, phrase + '\n')
  const pw = path.join(dir, 'pw')
  writeFileSync(pw, 'a long passphrase\nsecond line is not part of it\n')

  const sealed = path.join(dir, 'sealed.json')
  const fromPhrase = JSON.parse((await output(t, ['wallet', 'import', '--phrase-file', phraseFile, '--out', sealed, '--password-file', pw, '--light-kdf'])).out) as { address: string; encrypted: boolean }
  t.match(fromPhrase, { address: DEVNET_DEV_ACCOUNT.address, encrypted: true })
  const onDisk = readFileSync(sealed, 'utf8')
  t.notOk(onDisk.includes(DEVNET_DEV_ACCOUNT.seed), 'the seed is not on disk in clear')
  t.match(JSON.parse(onDisk), { keystore: 1, address: DEVNET_DEV_ACCOUNT.address, crypto: { kdf: 'scrypt', kdfparams: { n: 4096 } } })

  t.equal((await output(t, ['wallet', 'address', '--wallet', sealed])).out.trim(), DEVNET_DEV_ACCOUNT.address, 'the address needs no passphrase')
  t.equal((await output(t, ['wallet', 'export-phrase', '--wallet', sealed, '--password-file', pw])).out.trim(), phrase, 'the passphrase opens it')
  const wrong = path.join(dir, 'wrong')
  writeFileSync(wrong, 'not it\n')
  await t.rejects(run(['wallet', 'export-phrase', '--wallet', sealed, '--password-file', wrong]), new UsageError(`${sealed}: wrong passphrase (or the file was altered)`))

  // the same phrase typed inline, upper case: the same wallet
  const again = JSON.parse((await output(t, ['wallet', 'import', '--phrase', phrase.toUpperCase(), '--out', path.join(dir, 'again.json')])).out) as { address: string }
  t.equal(again.address, DEVNET_DEV_ACCOUNT.address)
})

t.test('encrypt in place; keygen --encrypt; a seed-only file', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const pw = path.join(dir, 'pw')
  writeFileSync(pw, 'pass phrase\n')
  const file = path.join(dir, 'w.json')
  const made = JSON.parse((await output(t, ['keygen', '--out', file])).out) as { address: string; encrypted: boolean }
  t.equal(made.encrypted, false)
  await output(t, ['wallet', 'encrypt', '--wallet', file, '--password-file', pw, '--light-kdf'])
  t.match(JSON.parse(readFileSync(file, 'utf8')), { keystore: 1, address: made.address })
  t.equal(statSync(file).mode & 0o777, 0o600)
  await t.rejects(run(['wallet', 'encrypt', '--wallet', file, '--password-file', pw]), new UsageError(`${file} is already encrypted`))

  const k = JSON.parse((await output(t, ['keygen', '--out', path.join(dir, 'k.json'), '--password-file', pw, '--light-kdf'])).out) as { encrypted: boolean }
  t.equal(k.encrypted, true, '--password-file implies --encrypt')

  const seedOnly = path.join(dir, 'seed.json')
  writeFileSync(seedOnly, JSON.stringify({ seed: DEVNET_DEV_ACCOUNT.seed }))
  t.equal((await output(t, ['wallet', 'address', '--wallet', seedOnly])).out.trim(), DEVNET_DEV_ACCOUNT.address, 'a file holding only {"seed": ...} is accepted')
  writeFileSync(seedOnly, '{"seed": "nope"}')
  await t.rejects(run(['wallet', 'address', '--wallet', seedOnly]), { message: /is not an ML-DSA-87 wallet file \(want "kind": "ml-dsa-87" and "seed": 64 hex characters\)/ })
})

t.test('import refusals', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const out = path.join(dir, 'x.json')
  await t.rejects(run(['wallet', 'import', '--out', out]), { message: /needs exactly one of --seed HEX, --phrase "24 words", --phrase-file FILE$/ })
  await t.rejects(run(['wallet', 'import', '--seed', DEVNET_DEV_ACCOUNT.seed, '--phrase', 'a b', '--out', out]), { message: /\(got --seed and --phrase\)/ })
  await t.rejects(run(['wallet', 'import', '--seed', 'abcd', '--out', out]), new UsageError('--seed must be the 32-byte ML-DSA-87 seed as 64 hex characters'))
  await t.rejects(run(['wallet', 'import', '--phrase', 'abandon abandon', '--out', out]), new UsageError('a backup phrase has 24 words, got 2'))
  await t.rejects(run(['wallet', 'export-phrase', '--wallet', path.join(dir, 'missing.json')]), { message: /does not exist/ })
})

t.test('`ledger wallet` and `ledger tx` alone print their sub-commands', async (t) => {
  for (const [cmd, subs] of [['wallet', ['address', 'balance', 'create', 'import', 'export-phrase', 'encrypt']], ['tx', ['send', 'status [id]']]] as const) {
    const exitCode = process.exitCode
    const { err } = await output(t, [cmd])
    process.exitCode = exitCode
    for (const sub of subs) t.match(err, `ledger ${cmd} ${sub}`, `${cmd} help names ${sub}`)
    t.notMatch(err, /Not enough non-option arguments/)
  }
})

t.test('tx status without an id says what it needs', async (t) => {
  await t.rejects(run(['tx', 'status']), new UsageError('tx status needs a transaction id (or a unique prefix of 8+ hex): ledger tx status <id>'))
})

t.test('verify --help gives the public port as its example', async (t) => {
  const { out } = await output(t, ['verify', '--help'])
  t.match(out, 'http://127.0.0.1:8081')
  t.notMatch(out, '8080')
})

t.test('the passphrase prompt echoes nothing and asks twice for a new one', async (t) => {
  const input = Object.assign(new PassThrough(), { isTTY: true, raw: false, setRawMode (m: boolean) { this.raw = m; return this } })
  const output = new PassThrough()
  let shown = ''
  output.on('data', (c: Buffer) => { shown += String(c) })
  const answer = getPassphrase({ purpose: 'w.json', confirm: true }, { input, output })
  input.write('s3cret x\x7fy\r')
  await new Promise((resolve) => setImmediate(resolve))
  input.write('s3cret y\n')
  t.equal(await answer, 's3cret y', 'backspace erases')
  t.notMatch(shown, 's3cret', 'nothing typed is echoed')
  t.match(shown, 'Passphrase for w.json: ')
  t.match(shown, 'Repeat the passphrase: ')
  t.equal(input.raw, false, 'raw mode is switched off again')

  const notTty = Object.assign(new PassThrough(), { isTTY: false })
  await t.rejects(getPassphrase({ purpose: 'w.json' }, { input: notTty, output }), { message: 'a passphrase is needed and there is no terminal to ask on: pass --password-file FILE' })
})
