#!/usr/bin/env node
import { main } from '../core/cli.ts'

await main()
