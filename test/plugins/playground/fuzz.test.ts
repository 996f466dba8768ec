// Malformed requests to every playground route, signed in and not: nothing a client sends may
// cause a 500, and every error is the node's JSON error shape. Then field-by-field type
// confusion in compile, deploy and call bodies.
import t from 'tap'
import { startPlaygroundNode } from './fixtures/playground-node.ts'
import { fuzzServer, rng } from '../explorer/fixtures/fuzz.ts'
import type { FuzzRoute } from '../explorer/fixtures/fuzz.ts'
import { PLAYGROUND_ROUTES } from '../../../plugins/playground/routes.ts'
import { getExample } from '../../../core/contracts/index.ts'

const SEED = Number(process.env.FUZZ_SEED ?? 20261123)

t.test('fuzzing the playground', async (t) => {
  const node = await startPlaygroundNode()
  t.teardown(() => node.stop())
  await node.fundFaucet()
  const alice = await node.join('alice')
  await node.mine()
  const counter = await node.deploy(alice, getExample('counter')?.source ?? '')

  const routes: FuzzRoute[] = [
    ...PLAYGROUND_ROUTES.map((path) => ({ method: path.includes(':') || path.endsWith('contracts') || path.endsWith('examples') ? 'GET' as const : 'POST' as const, path })),
    { method: 'GET', path: '/playground' },
    { method: 'GET', path: '/playground/assets/:file' }
  ]
  const anonymous = await fuzzServer(t, node.app, routes, { seed: SEED, perRoute: 40 })
  const signedIn = await fuzzServer(t, node.app, routes, { seed: SEED + 1, perRoute: 40, headers: () => ({ cookie: alice.cookie ?? '' }) })
  t.ok(anonymous + signedIn >= 600, `${anonymous + signedIn} requests sent`)

  await t.test('type confusion in every body field', async (t) => {
    const r = rng(SEED + 2)
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T
    const values: unknown[] = [
      null, true, false, 0, -1, 1.5, 1e308, -1e308, 2 ** 60, '', 'x', '0x', '0x01', '1e3', ' 1', '-0', 'ü😀', 'A'.repeat(5000),
      [], [1], [null], ['x', 'y'], {}, { a: 1 }, [{ name: 'a', type: 'uint' }], [{ type: 'bool' }], [{ name: 1, type: null }],
      counter.address, counter.address.slice(2).toUpperCase(), 'ab'.repeat(20), '1'.repeat(78), '0x' + 'f'.repeat(64)
    ]
    const shapes: Array<[string, string[], () => Record<string, unknown>]> = [
      ['/api/playground/compile', ['source', 'example'], () => ({ source: getExample('counter')?.source })],
      ['/api/playground/deploy', ['source', 'example', 'gas_limit', 'value', 'init_calldata'], () => ({ example: 'counter', gas_limit: 100_000 })],
      ['/api/playground/call', ['contract_addr', 'selector', 'args', 'params', 'gas_limit', 'value'], () => ({ contract_addr: counter.address, selector: 1, args: [1], params: [{ name: 'by', type: 'uint' }], gas_limit: 50_000 })]
    ]
    const failures: string[] = []
    const statuses = new Map<number, number>()
    for (let i = 0; i < 450; i++) {
      const [url, fields, base] = pick(shapes)
      const body = base()
      for (let k = 0; k < 1 + Math.floor(r() * 3); k++) body[pick(fields)] = pick(values)
      const res = await node.pg('POST', url, { cookie: alice.cookie }, body)
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
      if (res.statusCode >= 500 || (res.statusCode >= 400 && typeof res.json().error !== 'string')) {
        failures.push(`${url} ${JSON.stringify(body).slice(0, 200)} -> ${res.statusCode} ${res.body.slice(0, 200)}`)
      }
      if (node.resolve('mempool').size >= 40) await node.mine()
    }
    t.same(failures, [], `statuses ${JSON.stringify(Object.fromEntries(statuses))}`)
    t.ok((statuses.get(200) ?? 0) > 0 && (statuses.get(400) ?? 0) > 0, 'some accepted, some refused')
  })

  // the node still works afterwards
  await node.mine()
  const get = await node.call(alice, counter, 'get')
  t.match(get, { status: 'confirmed', success: true })
})
