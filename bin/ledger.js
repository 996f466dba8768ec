#!/usr/bin/env node
// `npx ledger`: plain JavaScript, so starting the CLI does not load Node's TypeScript
// stripper for this file; the compile cache keeps the stripped code of the modules loaded
// next, so a second start skips most of that work too (`ledger --help`, issue 15).
import { enableCompileCache } from 'node:module'
import { execWithNodeFlags } from './node-flags.js'

// `ledger run` re-executes itself with V8's heap flags (bin/node-flags.js) before loading anything
execWithNodeFlags(process.argv)
enableCompileCache()
const { main } = await import('../core/kernel/cli.ts')
await main()
