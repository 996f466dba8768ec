import t from 'tap'
import path from 'node:path'
import os from 'node:os'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { SelfHostedSource } from '../../../../plugins/entropy-aggregator/sources/self-hosted.ts'
import { healthSnapshot, healthViolation } from '../../../../core/entropy/health.ts'
import { BOUNDS } from '../helpers.ts'
import { seededBytes } from '../../../helpers/random.ts'

function tmp (t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ledger-hwrng-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

t.test('kernel mode: fresh CSPRNG bytes every call', async (t) => {
  const s = new SelfHostedSource({ device: 'kernel', hwrngPath: '/nonexistent', hwrngTimeoutMs: 100 })
  const a = await s.generate(32768)
  const b = await s.generate(32768)
  t.equal(a.source, 'self-hosted')
  t.equal(a.bytes.length, 32768)
  t.notSame(Buffer.from(a.bytes), Buffer.from(b.bytes))
  t.equal(healthViolation(healthSnapshot(a.bytes), BOUNDS), null)
  t.match(s.device, /kernel CSPRNG$/)
})

t.test('hwrng mode: reads a 64-byte seed from the device per call; a device that fails fails the source', async (t) => {
  const file = path.join(tmp(t), 'hwrng')
  writeFileSync(file, seededBytes('hwrng device', 128))
  const s = new SelfHostedSource({ device: 'hwrng', hwrngPath: file, hwrngTimeoutMs: 1000 })
  t.teardown(() => s.close())
  t.equal((await s.generate(1000)).bytes.length, 1000)
  t.equal((await s.generate(1000)).bytes.length, 1000)
  await t.rejects(s.generate(1000), /end of file/, 'a third seed is not there: the device is exhausted')
  const missing = new SelfHostedSource({ device: 'hwrng', hwrngPath: path.join(tmp(t), 'none'), hwrngTimeoutMs: 1000 })
  await t.rejects(missing.generate(64), /ENOENT/)
})

t.test('auto mode: a missing device leaves the kernel CSPRNG serving alone', async (t) => {
  const s = new SelfHostedSource({ device: 'auto', hwrngPath: path.join(tmp(t), 'none'), hwrngTimeoutMs: 1000 })
  const out = await s.generate(64)
  t.equal(out.bytes.length, 64)
  t.match(s.hwrngProblem, /ENOENT/)
  t.match(s.device, /kernel CSPRNG$/)
  t.equal((await s.generate(64)).bytes.length, 64, 'keeps serving without asking the device again')
})
