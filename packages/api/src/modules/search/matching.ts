import type { RecordScope } from '@wellrest/core';
import type { DirectoryData } from './directory.js';

// The matching rules the search shares between PostgreSQL and the search directory, and what
// either answers.

/**
 * The word similarity a fuzzy match needs: in SQL set per transaction as pg_trgm's threshold so
 * the matches use the indexable `<%` operator (trigram GIN indexes), and the same bar in the
 * search directory. One slip of the keys (a wrong or swapped letter) changes up to five of a
 * word's trigrams, so a word of n letters keeps at least 1 - 5/(n + 2) of them: short words stay
 * typo-tolerant, and long ones no longer match thousands of merely similar-looking names. The
 * shortest word of the query decides.
 */
export function fuzzyThreshold(q: string): number {
  const shortest = Math.min(...fuzzyWords(q).map((word) => word.length));
  return Math.min(0.6, Math.max(0.3, 1 - 5 / (shortest + 2)));
}

/** The booking or referral number a query names (`123` or `#123`), or 0. */
export function typedNumber(q: string): number {
  return /^#?\d{1,9}$/.test(q) ? Number(q.replace('#', '')) : 0;
}

/** Patients and physicians whose bookings and referrals a name search considers. */
export const RELATED_CANDIDATES = 50;

/**
 * The words of a query that fuzzy name matching requires, each on its own: "james garcia" finds
 * names close to both words, not every James and every Garcia. Words under three letters carry
 * too few trigrams to match on alone; a query of only such words is matched whole.
 */
export function fuzzyWords(q: string): string[] {
  const words = longWords(q);
  return words.length > 0 ? words.slice(0, 4) : [q];
}

/** The words of a query of three letters or more, split on spaces and punctuation. */
function longWords(q: string): string[] {
  return q.split(/[^\p{L}\p{N}'-]+/u).filter((word) => word.length >= 3);
}

/**
 * Whether every name containing `q` is a fuzzy match already, so the substring test can be left
 * out. A word of n letters (n >= 4, letters and digits only) found anywhere inside a name shares
 * at least its n - 2 inner trigrams of n + 2: a word similarity of (n - 2)/(n + 2), above the
 * threshold its length sets (fuzzyThreshold). Three-letter words and words with punctuation,
 * which pg_trgm splits, still need the substring test.
 */
export function fuzzyCoversSubstrings(q: string): boolean {
  return longWords(q).length > 0 && fuzzyWords(q).every((word) => /^[\p{L}\p{N}]{4,}$/u.test(word));
}

export interface PatientMatch {
  id: number;
  name: string;
  email: string;
  score: number;
}

export interface PhysicianMatch {
  id: number;
  name: string;
  npi: string;
  practice: string | null;
  score: number;
}

export interface KitMatch {
  id: number;
  kit_id: string;
}

/** A referral found, with what its search result shows. */
export interface ReferralMatch {
  id: number;
  status: string;
  urgency: string;
  patient_name: string;
  physician_name: string;
  score: number;
}

/** What a referral search starts from: the number typed, and the patients and physicians found. */
export interface ReferralCandidates {
  referralId: number;
  patientIds: number[];
  physicianIds: number[];
}

/** Where people and kits are matched: PostgreSQL, or the search directory when it is current. */
export interface Matcher {
  patients(q: string, limit: number, scope: RecordScope): Promise<PatientMatch[]> | PatientMatch[];
  physicians(q: string, limit: number, scope: RecordScope): Promise<PhysicianMatch[]> | PhysicianMatch[];
  kits(q: string): Promise<KitMatch[]> | KitMatch[];
  /** The best `limit` referrals of the candidates within `scope`, best first. */
  referrals(
    q: string,
    limit: number,
    candidates: ReferralCandidates,
    scope: RecordScope,
  ): Promise<ReferralMatch[]> | ReferralMatch[];
  /** Patients' names and kit labels for booking titles, when known without a query. */
  directory: DirectoryData | null;
}
