// The one way a test starts a browser: Debian's chromium through playwright-core, never a
// downloaded one (CI installs the `chromium` package; there is no internet for `playwright install`).
import { chromium } from 'playwright-core'
import type { Browser, LaunchOptions } from 'playwright-core'

export const CHROMIUM_LAUNCH: LaunchOptions = {
  executablePath: '/usr/bin/chromium',
  headless: true,
  // no sandbox (CI runs as root), no GPU, and nothing that phones home or updates itself mid-test
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run']
}

/** Launches headless chromium; the caller closes it (in its teardown). */
export async function launchChromium (): Promise<Browser> {
  return await chromium.launch(CHROMIUM_LAUNCH)
}
