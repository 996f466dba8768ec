// What the numbers were measured on: CPU, cores, memory, OS, Node and the versions of the
// packages that are measured or used as anchors.
import os from 'node:os'
import { readFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'

const ROOT = new URL('../../', import.meta.url)

const MEASURED_PACKAGES = [
  'hash-wasm', '@noble/hashes', '@noble/post-quantum', '@ethereumjs/evm', 'autocannon',
  'fastify', '@nxtedition/rocksdb', 'libp2p', 'assemblyscript'
] as const

export interface MachineInfo {
  cpu: string
  cores: number
  memoryGiB: number
  os: string
  node: string
  v8: string
  project: string
  commit: string | null
  packages: Record<string, string>
  loadAverage: number[]
}

function packageVersion (name: string): string {
  try {
    return (JSON.parse(readFileSync(new URL(`node_modules/${name}/package.json`, ROOT), 'utf8')) as { version: string }).version
  } catch {
    return 'not installed'
  }
}

function gitCommit (): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return null
  }
}

export function machineInfo (): MachineInfo {
  const project = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { name: string; version: string }
  return {
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    cores: os.availableParallelism(),
    memoryGiB: Math.round(os.totalmem() / 2 ** 30 * 10) / 10,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    v8: process.versions.v8,
    project: `${project.name} ${project.version}`,
    commit: gitCommit(),
    packages: Object.fromEntries(MEASURED_PACKAGES.map((p) => [p, packageVersion(p)])),
    loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100)
  }
}

export function describeMachine (m: MachineInfo): string {
  const pkgs = Object.entries(m.packages).map(([k, v]) => `${k} ${v}`).join(', ')
  return [
    `machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}`,
    `node ${m.node} (V8 ${m.v8}), ${m.project}${m.commit === null ? '' : ` @ ${m.commit}`}`,
    `packages: ${pkgs}`,
    `load average at start: ${m.loadAverage.join(' ')}`
  ].join('\n')
}
