// The backup phrase of a wallet: its 32-byte ML-DSA-87 seed written as a 24-word BIP-39
// mnemonic (English list). The seed IS the BIP-39 entropy (256 bits + an 8-bit SHA-256
// checksum = 24 words of 11 bits), so phrase -> seed is exact and reversible. BIP-39's
// PBKDF2 "mnemonic to seed" step (a 64-byte seed for BIP-32 trees) is not used: there is no
// key tree here, one phrase is one wallet. Pure: no I/O.
import { entropyToMnemonic, mnemonicToEntropy, validateMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'

export const PHRASE_WORDS = 24
const SEED_BYTES = 32

export class BackupPhraseError extends Error {}

/** 32-byte seed -> 24 space-separated English words */
export function seedToPhrase (seed: Uint8Array): string {
  if (seed.length !== SEED_BYTES) throw new BackupPhraseError(`a wallet seed is ${SEED_BYTES} bytes, got ${seed.length}`)
  return entropyToMnemonic(seed, wordlist)
}

/** 24 words (any case, any whitespace between) -> the 32-byte seed; a clear error for a typo */
export function phraseToSeed (phrase: string): Uint8Array {
  const words = phrase.trim().toLowerCase().split(/\s+/).filter((w) => w.length > 0)
  if (words.length !== PHRASE_WORDS) throw new BackupPhraseError(`a backup phrase has ${PHRASE_WORDS} words, got ${words.length}`)
  const unknown = words.filter((w) => !wordlist.includes(w))
  if (unknown.length > 0) throw new BackupPhraseError(`not in the BIP-39 English word list: ${unknown.slice(0, 3).map((w) => `'${w}'`).join(', ')}`)
  const normal = words.join(' ')
  if (!validateMnemonic(normal, wordlist)) throw new BackupPhraseError('the backup phrase\'s checksum does not match: a word is wrong or two are swapped')
  return mnemonicToEntropy(normal, wordlist)
}
