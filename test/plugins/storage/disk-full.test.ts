// A real full disk under a RocksStore (issue 31 item 5): a tmpfs of 16 MiB mounted in a private
// user and mount namespace (unprivileged; no root needed, nothing visible outside), filled to
// the last byte. The store refuses writes with StoreUnavailable('disk full') — RocksDB's own
// error is sticky, it would refuse every write until restarted — reads go on, nothing
// committed is lost, and once space returns the next write reopens the database and succeeds.
import t from 'tap'
import path from 'node:path'
import { execFile } from 'node:child_process'
import { NODE, ROOT } from '../../e2e/fixtures/cli-node.ts'

const CHILD = path.join(import.meta.dirname, 'fixtures', 'disk-full-child.ts')

t.test('disk full: refused with a clear fault, committed data kept, recovered when space returns', async (t) => {
  const out = await new Promise<string>((resolve, reject) => {
    execFile('unshare', ['--user', '--map-root-user', '--mount', NODE, CHILD], { cwd: ROOT, timeout: 60_000 }, (err, stdout, stderr) => {
      if (err !== null) reject(new Error(`${err.message}\n${stderr}`))
      else resolve(stdout)
    })
  })
  const r = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>
  t.match(r.refused, { fault: 'disk full', message: /^cannot write to .*admin: disk full \(IO error: No space left on device.*\); nothing was written$/ })
  t.equal(r.whileFull, 'disk full', 'refused again while the disk is full (no reopen attempted on a full disk)')
  t.equal(r.readWhileFull, 10, 'reads go on while writes are refused')
  t.equal(r.recovered, true, 'writes succeed again once space returns')
  t.equal(r.fault, null)
  const kept = r.afterReopen as { committed: number; acceptedWhileFull: number; after: number }
  t.same(kept, { committed: 10, acceptedWhileFull: r.acceptedBeforeRefusal, after: 10 }, 'every acknowledged write is on disk')
  t.match(r.readOnlyStart, /^data dir .* cannot be written \(read-only\): EROFS: read-only file system.*; free space or make it writable, or pass another --data-dir$/, 'a start on a read-only data dir says so before anything else')
})
