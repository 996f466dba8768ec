#!/usr/bin/env node
// The TypeScript name of the entry point (`node bin/ledger.ts …`); `npx ledger` runs
// bin/ledger.js directly, which starts faster.
import './ledger.js'
