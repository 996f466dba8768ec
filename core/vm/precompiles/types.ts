export interface Precompile {
  readonly name: string
  gas(input: Uint8Array): number
  run(input: Uint8Array): Uint8Array
}
