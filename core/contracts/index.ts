// Public API of the contract language: compile source to bytecode + ABI, and the examples.
export { compile } from './compile.ts'
export type { CompileResult } from './compile.ts'
export { CompileError } from './errors.ts'
export type { ContractAbi, AbiMethod, AbiEvent, AbiStorage } from './abi.ts'
export { eventSignature, eventTopic } from './abi.ts'
export { EXAMPLES, getExample } from './examples/index.ts'
export type { Example } from './examples/index.ts'
export { mappingSlot } from './layout.ts'
