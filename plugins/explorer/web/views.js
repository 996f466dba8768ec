// The explorer's pages, each built from one public API call: latest blocks, one block, one
// transaction, one address. Each returns a DOM node; the router swaps it into #view.
import { h, short, addressLink, txLink, blockLink, coin, when, badge, kindBadge, fields, table, pager } from './dom.js'
import { verifyAttestation } from './attestation.js'
import { decodeLog } from '/common/abi-words.js'
import { evidenceBadge } from '/common/entropy-evidence.js'

export class NotFound extends Error {}

export async function api (path) {
  const res = await fetch(path, { headers: { accept: 'application/json' } })
  let body = null
  try { body = await res.json() } catch { /* a non-JSON error page */ }
  if (res.status === 404) throw new NotFound(body?.error ?? 'not found')
  if (!res.ok) throw new Error(body?.error ?? `HTTP ${res.status}`)
  return body
}

const PAGE = 25

export async function blocksView ({ offset = 0 }, nav, previous) {
  const data = await api(`/api/explorer/blocks?offset=${offset}&limit=${PAGE}`)
  const seen = previous ?? new Set()
  const rows = data.blocks.map((b) => h('tr', { dataset: { height: String(b.height) }, class: seen.size > 0 && !seen.has(b.height) ? 'new' : undefined },
    h('td', {}, blockLink(b.height)),
    h('td', {}, h('a', { href: `#/block/${b.height}`, class: 'mono', title: b.hash }, short(b.hash, 12))),
    h('td', {}, when(b.timestamp)),
    h('td', { class: 'tx-count' }, String(b.tx_count)),
    h('td', {}, addressLink(b.miner)),
    h('td', {}, String(b.difficulty)),
    h('td', {}, evidenceCell(b.entropy_evidence))))
  const node = h('section', { class: 'panel', id: 'blocks-panel' },
    h('h2', {}, offset === 0 ? 'Latest blocks' : 'Blocks'),
    table('blocks', ['Height', 'Hash', 'Time', 'Txs', 'Miner', 'Difficulty', 'Entropy'], rows),
    pager(data.pagination, (o) => nav(o === 0 ? '#/' : `#/blocks/${o}`)))
  node.heights = new Set(data.blocks.map((b) => b.height))
  return node
}

/** what the block's attestation proves, in the one vocabulary (docs/entropy.md) */
function evidenceCell (code) {
  const e = evidenceBadge(code)
  return h('span', { class: `badge ${e.cls}`, title: e.proves, dataset: { evidence: code ?? 'unrecorded' } }, e.label)
}

function txRow (tx) {
  return h('tr', { dataset: { txId: tx.tx_id } },
    h('td', {}, txLink(tx.tx_id)),
    h('td', {}, kindBadge(tx.kind)),
    h('td', {}, addressLink(tx.sender, tx.sender_name)),
    h('td', {}, addressLink(tx.recipient, tx.recipient_name)),
    h('td', {}, coin(tx.amount)),
    h('td', {}, coin(tx.fee)))
}

export async function blockView ({ height }, nav) {
  const b = await api(`/api/explorer/block/${encodeURIComponent(height)}`)
  return h('section', { class: 'panel', id: 'block-detail', dataset: { height: String(b.height) } },
    h('h2', {}, `Block #${b.height}`),
    fields([
      ['Height', String(b.height), 'block-height'],
      ['Hash', h('span', { class: 'mono' }, b.hash), 'block-hash'],
      ['Previous', b.height > 0 ? h('a', { href: `#/block/${b.height - 1}`, class: 'mono' }, b.previous_hash) : h('span', { class: 'mono muted' }, b.previous_hash)],
      ['Time', when(b.timestamp)],
      ['Miner', addressLink(b.miner), 'block-miner'],
      ['Transactions', String(b.tx_count), 'block-tx-count'],
      ['Difficulty', String(b.difficulty)],
      ['Nonce', String(b.nonce)],
      ['Merkle root', h('span', { class: 'mono' }, b.merkle_root)],
      ['Entropy attestation', b.qrng_attestation_present ? `present (${b.qrng_source ?? 'unknown source'})` : 'none (genesis)'],
      ['Entropy evidence', h('span', {}, evidenceCell(b.entropy_evidence), ' ', h('span', { class: 'muted' }, evidenceBadge(b.entropy_evidence).proves)), 'block-evidence']
    ]),
    attestationPanel(b),
    h('div', { class: 'pager' },
      b.height > 0 ? h('button', { type: 'button', id: 'block-prev', onclick: () => nav(`#/block/${b.height - 1}`) }, '← Previous block') : null,
      h('button', { type: 'button', id: 'block-next', onclick: () => nav(`#/block/${b.height + 1}`) }, 'Next block →')),
    h('h3', {}, 'Transactions'),
    table('block-txs', ['Transaction', 'Kind', 'From', 'To', 'Amount', 'Fee'], b.transactions.map(txRow)))
}

/** The attestation (source, rounds, commitment, health) and its in-browser verification badge. */
function attestationPanel (b) {
  const env = b.quantum_signature?.qrng_attestation
  if (env === undefined || env === null) return null
  const status = h('span', { id: 'attestation-badge', class: 'badge', dataset: { state: 'verifying' } }, 'verifying in your browser…')
  const rounds = b.beacon_rounds.length === 0 ? `none: ${evidenceBadge(b.entropy_evidence).label}` : b.beacon_rounds.map((r) => `${r.source} #${r.round}`).join(', ')
  const panel = h('section', { class: 'panel', id: 'block-attestation' },
    h('h3', {}, 'Attestation'),
    fields([
      ['Source', env.source, 'attestation-source'],
      ['Beacon rounds', rounds, 'attestation-rounds'],
      ['Commitment', h('span', { class: 'mono' }, env.commitment), 'attestation-commitment'],
      ['Health', `monobit ${env.health.monobit_ratio.toFixed(4)}, Fano ${env.health.fano_factor.toFixed(4)}, pool ${env.health.pool_size} bytes`, 'attestation-health'],
      ['Check', status]
    ]))
  api('/api/explorer/beacons')
    .then(({ beacons }) => verifyAttestation(b, beacons))
    .then((r) => {
      status.dataset.state = r.ok ? 'verified' : 'failed'
      status.className = `badge ${!r.ok ? 'failed' : b.entropy_verifiable ? 'ok' : 'evidence-weak'}`
      // what the browser proved: beacon signatures and derivation, or only the envelope's self-consistency
      status.textContent = r.ok ? (b.entropy_verifiable ? 'beacon-verified in your browser' : `self-consistent in your browser; ${evidenceBadge(b.entropy_evidence).label}`) : `not verified: ${r.failed}`
      status.title = r.checked.join(', ')
    })
    .catch((err) => {
      status.dataset.state = 'failed'
      status.className = 'badge failed'
      status.textContent = `not verified: ${err.message}`
    })
  return panel
}

function receiptFields (r) {
  return fields([
    ['Result', r.success ? badge('success', 'ok') : badge('failed', 'failed'), 'receipt-result'],
    ['Gas used', String(r.gas_used)],
    r.contract_address ? ['Contract', addressLink(r.contract_address)] : null,
    r.return_data !== null ? ['Return data', h('span', { class: 'mono' }, r.return_data || '(empty)')] : null,
    r.revert_reason ? ['Reason', r.revert_reason] : null
  ])
}

// ---- receipt logs, decoded with the contract's ABI when the node knows it

async function abiOf (address, cache) {
  if (!cache.has(address)) cache.set(address, api(`/api/explorer/abi/${address}`).catch(() => null))
  return await cache.get(address)
}

async function logsOf (txId) {
  const receipt = await api(`/api/receipt/${txId}`).catch(() => null)
  if (receipt === null || receipt.logs.length === 0) return null
  const cache = new Map()
  const items = await Promise.all(receipt.logs.map(async (log) => {
    const abi = await abiOf(log.address, cache)
    return h('li', { class: 'log', dataset: { decoded: String(abi?.events?.some((e) => e.topic === log.topics[0]) === true) } },
      decodeLog(log, abi), ' ', h('span', { class: 'muted' }, 'from '), addressLink(log.address))
  }))
  return h('div', { id: 'tx-logs' }, h('h3', {}, `Logs (${items.length})`), h('ol', { class: 'logs' }, items))
}

export async function txView ({ txId }, nav) {
  // a short id (the chat shows 16 characters) is resolved first, then shown under its full id
  if (!/^(0x)?[0-9a-f]{64}$/i.test(txId)) {
    const hit = await api(`/api/explorer/search?q=${encodeURIComponent(txId)}`)
    if (hit.type !== 'tx') throw new NotFound(`${txId} is not a transaction`)
    nav(`#/tx/${hit.tx_id}`)
    return h('section', { class: 'panel' }, h('p', {}, 'Opening the transaction…'))
  }
  const tx = await api(`/api/explorer/tx/${encodeURIComponent(txId)}`)
  const logs = tx.receipt ? await logsOf(tx.tx_id) : null
  return h('section', { class: 'panel', id: 'tx-detail', dataset: { status: tx.status } },
    h('h2', {}, 'Transaction'),
    fields([
      ['Id', h('span', { class: 'mono' }, tx.tx_id), 'tx-id'],
      ['Status', badge(tx.status, tx.status), 'tx-status'],
      ['Confirmations', String(tx.confirmations), 'tx-confirmations'],
      tx.block_height !== undefined ? ['Block', blockLink(tx.block_height), 'tx-block'] : null,
      ['Kind', kindBadge(tx.kind), 'tx-kind'],
      ['From', addressLink(tx.sender, tx.sender_name), 'tx-from'],
      ['To', addressLink(tx.recipient, tx.recipient_name), 'tx-to'],
      ['Amount', coin(tx.amount), 'tx-amount'],
      ['Fee', coin(tx.fee)],
      ['Time', when(tx.timestamp)],
      tx.memo !== undefined ? ['Message', h('span', { class: 'memo' }, tx.memo), 'tx-memo'] : null,
      tx.code_size !== undefined ? ['Code size', `${tx.code_size} bytes`] : null,
      tx.kind === 'call' ? ['Contract', addressLink(tx.to)] : null,
      tx.kind === 'call' ? ['Selector', tx.selector === null ? '–' : `0x${tx.selector.toString(16).padStart(2, '0')}`] : null,
      tx.kind === 'call' ? ['Arguments', String(tx.arg_count)] : null
    ]),
    tx.receipt ? h('div', { id: 'tx-receipt' }, h('h3', {}, 'Receipt'), receiptFields(tx.receipt)) : null,
    logs)
}

export async function mempoolView ({ offset = 0 }, nav) {
  const m = await api(`/api/explorer/mempool?offset=${offset}&limit=${PAGE}`)
  const rows = m.transactions.map((tx) => h('tr', { dataset: { txId: tx.tx_id } },
    h('td', {}, txLink(tx.tx_id)),
    h('td', {}, kindBadge(tx.kind)),
    h('td', {}, addressLink(tx.sender, tx.sender_name)),
    h('td', {}, addressLink(tx.recipient, tx.recipient_name)),
    h('td', {}, coin(tx.amount)),
    h('td', {}, coin(tx.fee)),
    h('td', {}, when(tx.timestamp))))
  return h('section', { class: 'panel', id: 'mempool-panel', dataset: { count: String(m.pending_count) } },
    h('h2', {}, `Pending transactions (${m.pending_count})`),
    h('p', { class: 'muted' }, 'Waiting in this node\'s mempool, in the order a miner takes them: highest fee first.'),
    rows.length === 0 ? h('p', { id: 'mempool-empty', class: 'muted' }, 'Nothing is waiting: the next block will hold only its coinbase.') : table('mempool-txs', ['Transaction', 'Kind', 'From', 'To', 'Amount', 'Fee', 'Sent'], rows),
    pager(m.pagination, (o) => nav(o === 0 ? '#/mempool' : `#/mempool/${o}`)))
}

export async function addressView ({ address, offset = 0 }, nav) {
  const a = await api(`/api/explorer/address/${encodeURIComponent(address)}?offset=${offset}&limit=${PAGE}`)
  const rows = a.transactions.map((t) => h('tr', { dataset: { txId: t.tx_id } },
    h('td', {}, txLink(t.tx_id)),
    h('td', {}, blockLink(t.block_height)),
    h('td', {}, badge(t.direction, t.direction === 'in' ? 'ok' : '')),
    h('td', {}, kindBadge(t.kind)),
    h('td', {}, t.direction === 'in' ? addressLink(t.sender, t.sender_name) : addressLink(t.recipient, t.recipient_name)),
    h('td', {}, coin(t.amount)),
    h('td', {}, when(t.timestamp))))
  return h('section', { class: 'panel', id: 'address-detail', dataset: { address: a.address } },
    h('h2', {}, a.name ? `Address: ${a.name}` : 'Address'),
    fields([
      ['Address', h('span', { class: 'mono' }, a.address), 'address-canonical'],
      a.wallet_address ? ['Wallet address', h('span', { class: 'mono' }, a.wallet_address), 'address-wallet'] : null,
      ['Name', a.name ?? '–', 'address-name'],
      ['Balance', coin(a.balance), 'address-balance'],
      ['Transactions', String(a.tx_count), 'address-tx-count'],
      a.is_foundation ? ['Role', badge('foundation (genesis premine)'), 'address-foundation'] : null
    ]),
    h('h3', {}, 'History'),
    table('address-txs', ['Transaction', 'Block', 'Dir', 'Kind', 'Counterparty', 'Amount', 'Time'], rows),
    pager(a.pagination, (o) => nav(`#/address/${address}${o > 0 ? `/${o}` : ''}`)))
}
