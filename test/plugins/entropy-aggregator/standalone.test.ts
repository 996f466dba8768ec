import t from 'tap'
import path from 'node:path'
import { spawn } from 'node:child_process'
import { startEntropyServer } from '../../../plugins/entropy-aggregator/standalone.ts'
import { ConfigError } from '../../../core/kernel/config.ts'
import { silent } from './helpers.ts'

const ROOT = path.resolve(import.meta.dirname, '../../..')
const DEAD = 'http://127.0.0.1:9' // discard port: nothing listens, refused at once

t.test('--source self-hosted serves this machine\'s entropy as self-hosted', async (t) => {
  const server = await startEntropyServer({ port: 0, sources: ['self-hosted'], logger: silent, settings: { selfHosted: { device: 'kernel', hwrngPath: '/dev/hwrng', url: null } } })
  t.teardown(() => server.close())
  const h = await (await fetch(`${server.url}/api/health`)).json() as Record<string, unknown>
  t.match(h, { status: 'ok', source: 'self-hosted', device: /kernel CSPRNG$/, pool: { capacity: 65536 }, min_quorum: 1 })
  const res = await fetch(`${server.url}/api/random/bytes?n=64`)
  t.equal(res.headers.get('x-entropy-source'), 'self-hosted')
  t.equal((await res.arrayBuffer()).byteLength, 64)
})

t.test('network defaults: offline, the testnet aggregator runs on self-hosted and says the beacon is down', async (t) => {
  const server = await startEntropyServer({ port: 0, network: 'testnet', logger: silent, settings: { beacons: { 'beacon-default': { urls: [DEAD] } } } })
  t.teardown(() => server.close())
  const h = await (await fetch(`${server.url}/api/health`)).json() as { status: string; source: string; sources: Array<{ id: string; ok: boolean; last_error: string }> }
  t.equal(h.status, 'ok')
  t.equal(h.source, 'aggregator:self-hosted')
  t.match(h.sources.find((s) => s.id === 'beacon-default'), { ok: false, last_error: /drand info: http:\/\/127\.0\.0\.1:9/ })
})

t.test('a port clash names the --port flag of `ledger entropy` (issue 14 item 11)', async (t) => {
  const first = await startEntropyServer({ port: 0, sources: ['self-hosted'], logger: silent })
  t.teardown(() => first.close())
  const err = await startEntropyServer({ port: first.port, sources: ['self-hosted'], logger: silent }).catch((e: unknown) => e)
  t.type(err, ConfigError)
  t.equal((err as Error).message, `the entropy server cannot listen on 127.0.0.1:${first.port}: address already in use (another node or program holds it; pick another port with --port)`)
})

t.test('mainnet refuses self-hosted', async (t) => {
  const err = await startEntropyServer({ port: 0, network: 'mainnet', sources: ['self-hosted'], logger: silent }).catch((e: unknown) => e)
  t.type(err, ConfigError)
  await t.rejects(startEntropyServer({ port: 0, network: 'mainnet', sources: ['self-hosted'], logger: silent }), /'self-hosted' is not in the mainnet trust list/)
  await t.rejects(startEntropyServer({ port: 0, sources: ['nope'], logger: silent }), /"entropy-aggregator.sources.0" must be one of/)
})

t.test('a self-hosted server as the upstream of another aggregator, over REST', async (t) => {
  const upstream = await startEntropyServer({ port: 0, sources: ['self-hosted'], logger: silent })
  t.teardown(() => upstream.close())
  const agg = await startEntropyServer({ port: 0, sources: ['self-hosted'], logger: silent, settings: { selfHosted: { device: 'auto', hwrngPath: '/dev/hwrng', url: upstream.url } } })
  t.teardown(() => agg.close())
  const h = await (await fetch(`${agg.url}/api/health`)).json() as { status: string; source: string; device: string }
  t.equal(h.status, 'ok')
  t.equal(h.source, 'self-hosted')
  t.match(h.device, `at ${upstream.url}`)
  const before = upstream.aggregator.pool.available
  t.ok(before < 65536, 'the upstream pool paid for the batch')

  // a remote that reports another composition cannot stand in for self-hosted
  const mixed = await startEntropyServer({ port: 0, logger: silent, settings: { beacons: { 'beacon-default': { urls: [DEAD] } } } })
  t.teardown(() => mixed.close())
  const impostor = await startEntropyServer({ port: 0, sources: ['self-hosted'], logger: silent, settings: { selfHosted: { device: 'auto', hwrngPath: '/dev/hwrng', url: mixed.url } } })
  t.teardown(() => impostor.close())
  t.equal(impostor.aggregator.status, 'below_quorum')
  t.match(impostor.aggregator.reason, /serves 'aggregator:self-hosted', configured as 'self-hosted'/)
})

t.test('`ledger entropy --source self-hosted` runs it from the CLI and exits cleanly on SIGTERM', async (t) => {
  const child = spawn(path.join(ROOT, 'node_modules/.bin/node'), [path.join(ROOT, 'bin/ledger.ts'), 'entropy', '--source', 'self-hosted', '--port', '0'], {
    cwd: ROOT,
    env: { ...process.env, LEDGER_LOG_JSON: '1' },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const kill = setTimeout(() => child.kill('SIGKILL'), 20_000)
  t.teardown(() => { clearTimeout(kill); child.kill('SIGKILL') })
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const m = /"url":"(http:\/\/127\.0\.0\.1:\d+)"[^\n]*entropy server listening/.exec(out)
      if (m !== null) resolve(m[1] as string)
    })
    void exited.then(() => reject(new Error(`exited before listening: ${out}`)))
  })
  const h = await (await fetch(`${url}/api/health`)).json() as { source: string; status: string }
  t.match(h, { status: 'ok', source: 'self-hosted' })
  child.kill('SIGTERM')
  t.equal(await exited, 0)
})
