import t from 'tap'
import type { Test } from 'tap'
import path from 'node:path'
import os from 'node:os'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, rmSync } from 'node:fs'
import { resolveConfig, ConfigError } from '../../../core/kernel/config.ts'
import { Kernel } from '../../../core/kernel/kernel.ts'
import type { EntropyStatusEvent } from '../../../core/kernel/hooks.ts'
import type { NetworkName } from '../../../core/chain/params.ts'
import { startEntropyServer } from '../../../plugins/entropy-aggregator/standalone.ts'
import { EntropyErrorCode } from '../../../plugins/entropy-aggregator/errors.ts'
import { loadFixture, silent, startRelay } from './helpers.ts'
import { DEVNET_BEACON } from '../../../config/entropy-sources.ts'

const PLUGIN_DIR = path.resolve(import.meta.dirname, '../../../plugins/entropy-aggregator')

async function freePort (): Promise<number> {
  const s = http.createServer()
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))
  const port = (s.address() as AddressInfo).port
  await new Promise<void>((resolve) => s.close(() => resolve()))
  return port
}

interface Booted { kernel: Kernel; events: EntropyStatusEvent[] }

async function boot (t: Test, network: NetworkName, section: Record<string, unknown>, start = true): Promise<Booted> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ledger-entropy-'))
  const config = resolveConfig({ network, logLevel: 'silent', plugins: ['http', { path: PLUGIN_DIR }], dataDir, 'entropy-aggregator': { port: 0, ...section } })
  const kernel = new Kernel(config, silent)
  const events: EntropyStatusEvent[] = []
  kernel.hooks.entropyStatus.tap('test', (e) => { events.push(e) })
  t.teardown(async () => { await kernel.stop(); rmSync(dataDir, { recursive: true, force: true }) })
  await kernel.boot()
  if (start) await kernel.start()
  return { kernel, events }
}

t.test('registers in a kernel, provides entropy, serves the REST contract on its port', async (t) => {
  const relay = await startRelay(loadFixture('default'))
  t.teardown(() => relay.close())
  const { kernel, events } = await boot(t, 'testnet', { beacons: { 'beacon-default': { urls: [relay.url] } }, beaconMaxAgeSeconds: null })
  t.same(kernel.plugins.map((p) => p.name), ['http', 'entropy-aggregator'])
  const entropy = kernel.container.resolve('entropy')
  const draw = await entropy.getBytes(64)
  t.equal(draw.bytes.length, 64)
  // the relay serves a real round from the fixtures, years old: mixed in, but no block may claim it
  t.equal(draw.source, 'aggregator:self-hosted', 'a beacon without a fresh round is not named')
  t.same(draw.beacons, [])
  t.match(draw.device, /kernel CSPRNG/)

  const s = entropy.status()
  t.equal(s.reachable, true)
  t.equal(s.host, '127.0.0.1')
  t.ok(s.port > 0, 'the bound port, not the configured 0')
  t.type(s.last_fetch_at, 'number')
  t.ok(s.pool_available_bytes > 0)
  t.equal(s.source, 'aggregator:beacon-default+self-hosted')
  t.equal(s.reason, null)
  t.same(events, [{ reachable: true, source: 'aggregator:beacon-default+self-hosted', reason: null }], 'entropyStatus called once the first round met the quorum')

  const res = await fetch(`http://127.0.0.1:${s.port}/api/health`)
  t.equal(res.status, 200)
  const h = await res.json() as { status: string; last_fill: { round: number } }
  t.equal(h.status, 'ok')
  t.equal(h.last_fill.round, relay.latest.round)
  const bytes = await fetch(`http://127.0.0.1:${s.port}/api/random/bytes?n=100`)
  t.equal((await bytes.arrayBuffer()).byteLength, 100)

  await kernel.stop()
  await t.rejects(fetch(`http://127.0.0.1:${s.port}/api/health`), 'the server is closed on shutdown')
  await t.rejects(entropy.getBytes(64), { code: EntropyErrorCode.STOPPED })
})

t.test('offline default: an unreachable beacon leaves self-hosted meeting the testnet quorum', async (t) => {
  const dead = await freePort()
  const { kernel } = await boot(t, 'testnet', { beacons: { 'beacon-default': { urls: [`http://127.0.0.1:${dead}`] } } })
  const entropy = kernel.container.resolve('entropy')
  const draw = await entropy.getBytes(64)
  t.equal(draw.source, 'aggregator:self-hosted')
  t.same(draw.beacons, [], 'unverifiable, which the testnet accepts')
  t.ok(kernel.params.trustedSources.includes(draw.source), 'a composition the testnet accepts')
})

t.test('devnet default: the node signs its beacon, every draw carries a fresh round', async (t) => {
  const { kernel } = await boot(t, 'devnet', {})
  const entropy = kernel.container.resolve('entropy')
  const draw = await entropy.getBytes(64)
  t.equal(draw.source, 'aggregator:beacon-devnet+self-hosted')
  t.equal(draw.beacons.length, 1)
  t.equal(draw.beacons[0]?.source, 'beacon-devnet')
  const pin = DEVNET_BEACON.pin
  t.ok(pin.genesisTime + (draw.beacons[0]!.round - 1) * pin.period >= Date.now() / 1000 - 40, 'a round of the last 40 s')
  const res = await fetch(`http://127.0.0.1:${entropy.status().port}/api/random/attested?n=48`)
  t.equal(res.status, 200)
  const body = await res.json() as { n: number; hex: string; source: string; beacons: Array<{ source: string; round: number }> }
  t.equal(body.n, 48)
  t.match(body.hex, /^[0-9a-f]{96}$/)
  t.equal(body.source, 'aggregator:beacon-devnet+self-hosted')
  t.equal(body.beacons[0]?.source, 'beacon-devnet')
  t.equal((await fetch(`http://127.0.0.1:${entropy.status().port}/api/random/attested?n=0`)).status, 400)
})

t.test('mainnet refuses self-hosted at boot with a clear error', async (t) => {
  const err = await boot(t, 'mainnet', { sources: ['beacon-default', 'self-hosted'] }, false).catch((e: unknown) => e)
  t.type(err, ConfigError)
  t.match((err as Error).message, /'self-hosted' is not in the mainnet trust list/)
})

t.test('url set: a client of the external source, no built-in server', async (t) => {
  const external = await startEntropyServer({ port: 0, sources: ['self-hosted'], logger: silent })
  t.teardown(() => external.close())
  const ownPort = await freePort()
  const { kernel, events } = await boot(t, 'testnet', { url: external.url, port: ownPort })
  const entropy = kernel.container.resolve('entropy')
  const draw = await entropy.getBytes(64)
  t.equal(draw.bytes.length, 64)
  t.equal(draw.source, 'self-hosted')
  const s = entropy.status()
  t.match(s, { reachable: true, host: '127.0.0.1', port: external.port, source: 'self-hosted', reason: null })
  t.type(s.last_fetch_at, 'number')
  t.same(events[0], { reachable: true, source: 'self-hosted', reason: null })
  await t.rejects(fetch(`http://127.0.0.1:${ownPort}/api/health`), 'the built-in server is not started')

  await external.close()
  await t.rejects(entropy.getBytes(64), { code: EntropyErrorCode.UNREACHABLE, message: /external entropy source: cannot reach/ })
  t.equal(entropy.status().reachable, false)
  t.match(events[events.length - 1], { reachable: false, reason: /cannot reach/ })
})

t.test('url set on mainnet: a self-hosted external source is refused, not mined on', async (t) => {
  const external = await startEntropyServer({ port: 0, sources: ['self-hosted'], logger: silent })
  t.teardown(() => external.close())
  const { kernel } = await boot(t, 'mainnet', { url: external.url })
  await t.rejects(kernel.container.resolve('entropy').getBytes(64), { code: EntropyErrorCode.UNTRUSTED_SOURCE, message: /reports 'self-hosted', which the mainnet trust list does not accept/ })
})
