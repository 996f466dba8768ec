// The launcher's runtime check (bin/runtime.js, issue 29): the pinned Node range, the pinned
// runtime found where npm installed it, and the one line for a Node that cannot run ledger.
import t from 'tap'
import { spawnSync } from 'node:child_process'
import { parseRange, pinnedNode, requiredNodeRange, satisfies, wrongNodeMessage } from '../../bin/runtime.js'

t.test('the range and the rule', async (t) => {
  t.match(requiredNodeRange(), /^\^24\./, 'the `node` dependency pins Node 24')
  t.same(parseRange('^24.21.0'), { major: 24, min: [24, 21, 0] })
  t.ok(satisfies('24.21.0', '^24.21.0'))
  t.ok(satisfies('24.30.1', '^24.21.0'))
  t.notOk(satisfies('24.20.9', '^24.21.0'))
  t.notOk(satisfies('20.20.2', '^24.21.0'))
  t.notOk(satisfies('25.0.0', '^24.21.0'))
  t.ok(satisfies(process.versions.node, requiredNodeRange()), 'the tests run on the pinned Node')
})

t.test('the pinned runtime is found and is the version the range names', async (t) => {
  const bin = pinnedNode()
  t.ok(bin, 'installed with ledger-node')
  const version = spawnSync(bin as string, ['--version'], { encoding: 'utf8' }).stdout.trim().replace(/^v/, '')
  t.ok(satisfies(version, requiredNodeRange()), `it runs Node ${version}`)
})

t.test('the message for a Node that cannot run ledger names both versions and the fix', async (t) => {
  t.match(wrongNodeMessage('20.20.2', '/usr/bin/node', '^24.21.0'), /^ledger: ledger-node needs Node \^24\.21\.0 \(Node 24\); this is Node 20\.20\.2 \(\/usr\/bin\/node\)\. Run 'npm install' in .+ to install the pinned runtime it runs on, or put Node 24 first on PATH\.$/)
})
