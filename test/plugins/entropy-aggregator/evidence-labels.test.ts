// Honest entropy labels in the aggregator's log and /api/health (docs/entropy.md, "What a
// label proves"): on testnet with the beacon unreachable, the log names the source that failed
// and then serves only what answered, saying nothing backs it; when the beacon answers again,
// it says so. The log never lists a failed source as serving.
import t from 'tap'
import { FakeSource, makeAggregator } from './helpers.ts'
import { recordingLogger } from '../../helpers/log.ts'
import { waitFor } from '../../helpers/wait.ts'
import { healthBody } from '../../../plugins/entropy-aggregator/routes.ts'
import { buildEntropyServer } from '../../../plugins/entropy-aggregator/server.ts'
import { createHttpService } from '../../../plugins/http/service.ts'

t.test('beacon down, then back: what the log and /api/health say is served', async (t) => {
  const { logger, records } = recordingLogger()
  const beacon = new FakeSource('beacon-default')
  const local = new FakeSource('self-hosted')
  beacon.up = false
  beacon.round = 77
  const agg = makeAggregator([beacon, local], { minQuorum: 1, logger })
  const app = buildEntropyServer({ http: createHttpService(), aggregator: agg, logger, waitMs: 100 })
  t.teardown(async () => { await app.close(); await agg.stop() })
  const health = async (): Promise<{ evidence: string | null; last_fill: { source: string | null } }> => (await app.inject({ method: 'GET', url: '/api/health' })).json()
  t.equal((await health()).evidence, null, 'nothing served yet')

  await agg.runRound('fill')
  await waitFor('the serving line', () => records.some((r) => r.msg.startsWith('entropy quorum met')))
  const failed = records.find((r) => r.msg === 'entropy source failed')
  t.match(failed, { source: 'beacon-default', reason: /down/ })
  const serving = records.find((r) => r.msg.startsWith('entropy quorum met'))
  t.match(serving, { serving: 'aggregator:self-hosted', failed: ['beacon-default'], evidence: 'no-evidence' })
  t.equal(serving?.msg, 'entropy quorum met: serving aggregator:self-hosted (no-evidence)')
  t.notOk(records.some((r) => JSON.stringify(r.serving ?? '').includes('beacon-default') || JSON.stringify(r.sources ?? '').includes('beacon-default')), 'the failed beacon is never listed as serving')
  const body = await health()
  t.equal(body.evidence, 'no-evidence', '/api/health: nothing backs the bytes')
  t.equal(body.last_fill.source, 'aggregator:self-hosted')
  t.equal(healthBody(agg.health()).evidence, body.evidence)

  beacon.up = true
  await agg.runRound('fill')
  await waitFor('the change', () => records.some((r) => r.msg.startsWith('entropy now serving')))
  t.match(records.find((r) => r.msg.startsWith('entropy now serving')), {
    msg: 'entropy now serving aggregator:beacon-default+self-hosted (beacon-verified)',
    serving: 'aggregator:beacon-default+self-hosted',
    failed: [],
    evidence: 'beacon-verified'
  })
  t.equal((await health()).evidence, 'beacon-verified')
})
