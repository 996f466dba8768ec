// Calls the entropyStatus hook when the provider's reachability flips (and once, when it is
// first known), not on every round: listeners are told about changes, not heartbeats.
import type { Hooks } from '../../core/kernel/hooks.ts'

export class ReachabilityNotifier {
  readonly #hooks: Hooks | undefined
  #last: boolean | null = null

  constructor (hooks: Hooks | undefined) { this.#hooks = hooks }

  update (reachable: boolean, source: string | null, reason: string | null): void {
    if (reachable === this.#last) return
    this.#last = reachable
    this.#hooks?.entropyStatus.call({ reachable, source, reason })
  }
}
