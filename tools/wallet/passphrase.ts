// Where a wallet passphrase comes from: --password-file (its first line, like geth's
// --password), else a prompt on the terminal with nothing echoed; never from a flag's value
// (it would sit in the shell history and in `ps`).
import { readFileSync, statSync } from 'node:fs'
import path from 'node:path'

export class PassphraseError extends Error {}

const MAX_PASSWORD_FILE_BYTES = 4096

export interface PromptStreams {
  input: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown }
  output: NodeJS.WritableStream
}

/** the first line of a password file (a trailing newline is not part of the passphrase) */
export function readPasswordFile (file: string): string {
  const abs = path.resolve(file)
  let text: string
  try {
    if (statSync(abs).size > MAX_PASSWORD_FILE_BYTES) throw new PassphraseError(`--password-file ${abs} is over ${MAX_PASSWORD_FILE_BYTES} bytes: not a password file`)
    text = readFileSync(abs, 'utf8')
  } catch (err) {
    if (err instanceof PassphraseError) throw err
    throw new PassphraseError(`cannot read --password-file ${abs}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`)
  }
  const line = text.split(/\r?\n/)[0] ?? ''
  if (line.length === 0) throw new PassphraseError(`--password-file ${abs}: its first line is empty`)
  return line
}

/** Reads one line from a terminal in raw mode, echoing nothing; Ctrl-C or Ctrl-D abort. */
export function promptHidden (question: string, io: PromptStreams): Promise<string> {
  const { input, output } = io
  if (input.isTTY !== true || input.setRawMode === undefined) {
    return Promise.reject(new PassphraseError('a passphrase is needed and there is no terminal to ask on: pass --password-file FILE'))
  }
  const setRaw = input.setRawMode.bind(input)
  output.write(question)
  return new Promise((resolve, reject) => {
    let typed = ''
    const finish = (err: Error | null): void => {
      input.removeListener('data', onData)
      setRaw(false)
      input.pause()
      output.write('\n')
      if (err !== null) reject(err)
      else resolve(typed)
    }
    const onData = (chunk: Buffer | string): void => {
      for (const ch of String(chunk)) {
        if (ch === '\r' || ch === '\n') { finish(null); return }
        if (ch === '\u0003' || ch === '\u0004') { finish(new PassphraseError('cancelled')); return }
        if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1)
        else if (ch >= ' ') typed += ch
      }
    }
    setRaw(true)
    input.resume()
    input.on('data', onData)
  })
}

export interface PassphraseRequest {
  'password-file'?: string
  /** what the passphrase is for, in the prompt */
  purpose: string
  /** a new passphrase: asked twice on a terminal */
  confirm?: boolean
}

const stdio = (): PromptStreams => ({ input: process.stdin, output: process.stderr })

export async function getPassphrase (req: PassphraseRequest, io: PromptStreams = stdio()): Promise<string> {
  if (req['password-file'] !== undefined) return readPasswordFile(req['password-file'])
  const first = await promptHidden(`Passphrase for ${req.purpose}: `, io)
  if (first.length === 0) throw new PassphraseError('the passphrase is empty')
  if (req.confirm === true) {
    const again = await promptHidden('Repeat the passphrase: ', io)
    if (again !== first) throw new PassphraseError('the two passphrases differ')
  }
  return first
}
