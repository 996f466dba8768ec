// Bounded polling for tests: never a fixed sleep before an assertion.

/** Polls until `check` holds (it may be async: an HTTP read); fails after `ms` with what was being waited for. */
export async function waitFor (what: string, check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const until = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
