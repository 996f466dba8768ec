#!/usr/bin/env node
import { main } from '../core/kernel/cli.ts'

await main()
