import type { RecordScope } from '@wellrest/core';
import { withinScope } from '../patients/access.js';
import type { DirectoryData } from './directory.js';
import {
  fuzzyCoversSubstrings,
  fuzzyThreshold,
  fuzzyWords,
  type KitMatch,
  type Matcher,
  type PatientMatch,
  type PhysicianMatch,
  type ReferralCandidates,
  type ReferralMatch,
} from './matching.js';
import type { NameIndex } from './name-index.js';

// The search's matching answered from the search directory: the same rules as the SQL of
// store.ts (matchingPatients, matchingPhysicians, the kit label lookup, matchingReferrals), the
// same scores and the same order, without a query.

/**
 * The names close to every fuzzy word of `q` (`word <% name` for each), and word_similarity(q,
 * name) of any name asked for: known already when `q` is one word.
 */
function nameMatches(
  names: NameIndex,
  q: string,
): { keys: Iterable<number>; similarity: (key: number) => number } {
  const words = fuzzyWords(q);
  const found = names.similarToAll(words, fuzzyThreshold(q));
  const known = words.length === 1 && words[0] === q ? found : new Map<number, number>();
  const query = names.query(q);
  return {
    keys: found.keys(),
    similarity: (key) => {
      let score = known.get(key);
      if (score === undefined) {
        score = names.similarity(query, key);
        known.set(key, score);
      }
      return score;
    },
  };
}

/** Best first: score, then name, then id (ORDER BY score DESC, name, id). */
function byRank(
  a: { score: number; name: string; id: number },
  b: { score: number; name: string; id: number },
) {
  return b.score - a.score || compareText(a.name, b.name) || a.id - b.id;
}

/** Text order by code point, as PostgreSQL orders names under the C and C.UTF-8 collations. */
function compareText(a = '', b = ''): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function patients(data: DirectoryData, q: string, limit: number, scope: RecordScope): PatientMatch[] {
  const lowered = q.toLowerCase();
  const digits = q.replace(/\D/g, '');
  const names = data.patientNames;
  const named = nameMatches(names, q);
  const nameKeys = new Set(named.keys);
  if (!fuzzyCoversSubstrings(q)) for (const key of names.containing(lowered)) nameKeys.add(key);
  const byContact = new Set<number>();
  if (!/\s/.test(q)) data.patientsByEmailPrefix(lowered, byContact);
  if (digits.length >= 3) data.patientsByPhoneDigits(digits, byContact);

  const nameScore = (key: number) => {
    const lowerName = names.lowerName(key);
    return Math.max(
      named.similarity(key),
      lowerName.startsWith(lowered) ? 1 : 0,
      lowerName.includes(lowered) ? 0.9 : 0,
    );
  };
  const found: PatientMatch[] = [];
  const take = (id: number, score: number) => {
    const patient = data.patients.get(id);
    if (!patient || !withinScope(scope, { physicianId: patient.physicianId })) return false;
    found.push({ id, name: names.names[patient.nameKey] ?? '', email: patient.email, score });
    return true;
  };
  // Found by email or phone: scored in full (an email prefix or a phone match only adds).
  for (const id of byContact) {
    const patient = data.patients.get(id);
    if (!patient) continue;
    take(
      id,
      Math.max(
        nameScore(patient.nameKey),
        patient.emailLower.startsWith(lowered) ? 1 : 0,
        digits.length >= 3 && patient.phoneDigits.includes(digits) ? 0.8 : 0,
      ),
    );
  }
  // Found by name only: names best first (score, then name), each name's patients by id, until
  // `limit` are taken: every patient after them ranks lower.
  const keysByScore = new Map<number, number[]>();
  for (const key of nameKeys) {
    const score = nameScore(key);
    const keys = keysByScore.get(score);
    if (keys) keys.push(key);
    else keysByScore.set(score, [key]);
  }
  let taken = 0;
  for (const score of [...keysByScore.keys()].sort((a, b) => b - a)) {
    const keys = (keysByScore.get(score) as number[]).sort((a, b) =>
      compareText(names.names[a], names.names[b]),
    );
    for (const key of keys) {
      for (const id of data.patientIdsNamed(key)) if (!byContact.has(id) && take(id, score)) taken++;
      if (taken >= limit) return found.sort(byRank).slice(0, limit);
    }
  }
  return found.sort(byRank).slice(0, limit);
}

function physicians(data: DirectoryData, q: string, limit: number, scope: RecordScope): PhysicianMatch[] {
  const lowered = q.toLowerCase();
  const ids = new Set<number>();
  const named = nameMatches(data.physicianNames, q);
  data.physiciansNamed(named.keys, ids);
  data.physiciansNamed(data.physicianNames.containing(lowered), ids);
  const npiQuery = /^\d{3,10}$/.test(q);
  for (const physician of data.physicians.values()) {
    if (physician.practiceLower.includes(lowered) || (npiQuery && physician.npi.startsWith(q)))
      ids.add(physician.id);
  }

  const similarity = named.similarity;
  const matches: PhysicianMatch[] = [];
  for (const id of ids) {
    const physician = data.physicians.get(id);
    if (!physician || !withinScope(scope, { id })) continue;
    const name = data.physicianNames.names[physician.nameKey] ?? '';
    const score = Math.max(
      similarity(physician.nameKey),
      physician.npi.startsWith(q) ? 1 : 0,
      data.physicianNames.lowerName(physician.nameKey).includes(lowered) ? 0.9 : 0,
      physician.practice !== null && physician.practiceLower.includes(lowered) ? 0.7 : 0,
    );
    matches.push({ id, name, npi: physician.npi, practice: physician.practice, score });
  }
  return matches.sort(byRank).slice(0, limit);
}

function kits(data: DirectoryData, q: string): KitMatch[] {
  const lowered = q.toLowerCase();
  const found: KitMatch[] = [];
  for (const [id, kit] of data.kits) if (kit.lower.includes(lowered)) found.push({ id, kit_id: kit.label });
  return found;
}

function referrals(
  data: DirectoryData,
  q: string,
  limit: number,
  candidates: ReferralCandidates,
  scope: RecordScope,
): ReferralMatch[] {
  const ids = new Set<number>();
  if (data.referrals.has(candidates.referralId)) ids.add(candidates.referralId);
  data.referralsOf(candidates.patientIds, candidates.physicianIds, ids);
  const lowered = q.toLowerCase();
  const patientQuery = data.patientNames.query(q);
  const physicianQuery = data.physicianNames.query(q);
  const matches: ReferralMatch[] = [];
  for (const id of ids) {
    const referral = data.referrals.get(id);
    const patient = referral && data.patients.get(referral.patientId);
    const physician = referral && data.physicians.get(referral.physicianId);
    if (!referral || !patient || !physician || !withinScope(scope, { physicianId: referral.physicianId }))
      continue;
    matches.push({
      id,
      status: referral.status,
      urgency: referral.urgency,
      patient_name: data.patientNames.names[patient.nameKey] ?? '',
      physician_name: data.physicianNames.names[physician.nameKey] ?? '',
      // As the SQL computes it: single-precision similarities times double-precision weights.
      score: Math.max(
        id === candidates.referralId ? 1 : 0,
        data.patientNames.similarity(patientQuery, patient.nameKey) * 0.9,
        data.physicianNames.similarity(physicianQuery, physician.nameKey) * 0.8,
        data.patientNames.lowerName(patient.nameKey).includes(lowered) ? 0.85 : 0,
      ),
    });
  }
  return matches.sort((a, b) => b.score - a.score || b.id - a.id).slice(0, limit);
}

export function directoryMatcher(data: DirectoryData): Matcher {
  return {
    patients: (q, limit, scope) => patients(data, q, limit, scope),
    physicians: (q, limit, scope) => physicians(data, q, limit, scope),
    kits: (q) => kits(data, q),
    referrals: (q, limit, candidates, scope) => referrals(data, q, limit, candidates, scope),
    directory: data,
  };
}
