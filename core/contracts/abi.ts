// The ABI a compile returns (SPEC 2.6): methods with their selectors, storage slots, events
// with their signature text and topic (SHA3-256 of the signature, topics[0] of their logs).
import { sha3_256Hex } from '../crypto/sha3.ts'
import { typeText } from './ast.ts'
import type { EventDecl } from './ast.ts'
import type { CheckedContract } from './checker.ts'
import { stateEffects } from './effects.ts'

export interface AbiMethod {
  name: string
  selector: number
  params: Array<{ name: string; type: string }>
  returns: string | null
  /** false when the method writes no storage, emits no event and sends no coin (directly or
   *  through calls): it can run as a free read-only query */
  mutates: boolean
}

export interface AbiStorage { name: string; type: string; slot: number | string }

export interface AbiEvent {
  name: string
  signature: string
  /** 64 hex, no 0x */
  topic: string
  params: Array<{ name: string; type: string; indexed: boolean }>
}

export interface ContractAbi {
  contract: string
  methods: AbiMethod[]
  storage: AbiStorage[]
  events: AbiEvent[]
}

/** e.g. `Incremented(uint,uint)` */
export function eventSignature (event: EventDecl): string {
  return `${event.name}(${event.params.map((p) => typeText(p.type)).join(',')})`
}

export function eventTopic (event: EventDecl): string {
  return sha3_256Hex(eventSignature(event))
}

export function buildAbi (checked: CheckedContract): ContractAbi {
  const methods: AbiMethod[] = []
  const effects = stateEffects(checked)
  for (const { decl, selector } of checked.functions.values()) {
    if (selector === null) continue
    methods.push({
      name: decl.name,
      selector,
      params: decl.params.map((p) => ({ name: p.name, type: typeText(p.type) })),
      returns: decl.returns === null ? null : typeText(decl.returns),
      mutates: effects.get(decl.name) ?? true
    })
  }
  return {
    contract: checked.contract.name,
    methods,
    // a slot beyond the safe-integer range is given as a decimal string so JSON keeps it exact
    storage: checked.storage.map(({ decl, slot }) => ({
      name: decl.name,
      type: typeText(decl.type),
      slot: slot <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(slot) : slot.toString()
    })),
    events: [...checked.events.values()].map((e) => ({
      name: e.name,
      signature: eventSignature(e),
      topic: eventTopic(e),
      params: e.params.map((p) => ({ name: p.name, type: typeText(p.type), indexed: p.indexed }))
    }))
  }
}
