// Types of entropy-evidence.js (the pages' copy of core/chain/entropy-evidence.ts), for the test that holds the two equal.
import type { EntropyEvidence } from '../../../core/chain/entropy-evidence.ts'

export declare const ENTROPY_EVIDENCE: Readonly<Record<EntropyEvidence, { label: string; proves: string }>>
export declare function evidenceBadge (code: EntropyEvidence | null): { label: string; proves: string; cls: string }
