import { type RecordScope, type SearchInput, type SearchResult, searchResultUrl } from '@wellrest/core';
import type { Knex } from 'knex';
import { type AppContext, genericPlansOf } from '../../http/context.js';
import { abilityOf, accessFor, recordAccess, scopeOf } from '../patients/access.js';
import { RELATED_CANDIDATES, typedNumber } from './matching.js';
import { readSearch, type SearchPlan, type SearchRow } from './statement.js';
import { matchTerms, queryTerms } from './words.js';

// The global search (spec §2 search dialog): patients, physicians and kits matched word by word
// through the search index in PostgreSQL (words.ts, migration 0520), ranked, and limited to what
// the caller may see; bookings and referrals of what matched are read in the same statement
// (statement.ts).

interface Ranked {
  result: SearchResult;
  score: number;
  /** Its place among the results of its type, as chosen (statement.ts). */
  rank: number;
}

const ALL: RecordScope = { kind: 'all' };

/**
 * What the caller's search reads (statement.ts): the patients and physicians shown, within the
 * caller's scope, and the candidates whose bookings and referrals are considered (ids only,
 * never shown; bookings and referrals are scoped on their own). A physician's candidates are
 * their own patients, so their bookings are never crowded out.
 */
function planFor(ctx: AppContext, q: string, limit: number): SearchPlan {
  const ability = abilityOf(ctx);
  const readsBookings = ability.can('read', 'Booking');
  const readsReferrals = ability.can('read', 'Referral');
  const candidateLimit = Math.max(limit, RELATED_CANDIDATES);
  const plan: SearchPlan = { limit, typedNumber: typedNumber(q) };

  const patientScope = ability.can('read', 'Patient') ? scopeOf(ctx, 'read', 'Patient') : null;
  const candidateScope = readsBookings ? scopeOf(ctx, 'read', 'Booking') : ALL;
  // One list serves both when both see every patient.
  const shared = patientScope?.kind === 'all' && candidateScope.kind === 'all';
  if (readsBookings || readsReferrals || shared)
    plan.patientCandidates = { scope: candidateScope, limit: candidateLimit };
  if (patientScope !== null) plan.patients = shared ? 'shared' : { scope: patientScope };

  const physicianScope = ability.can('read', 'Physician') ? scopeOf(ctx, 'read', 'Physician') : null;
  if (readsReferrals) plan.physicianCandidates = { limit: candidateLimit };
  if (physicianScope !== null)
    plan.physicians = physicianScope.kind === 'all' && readsReferrals ? 'shared' : { scope: physicianScope };

  if (readsBookings) plan.bookings = { scope: scopeOf(ctx, 'read', 'Booking'), kitLimit: RELATED_CANDIDATES };
  if (readsReferrals) plan.referrals = { scope: scopeOf(ctx, 'read', 'Referral') };
  return plan;
}

/** A row of the search statement as a result. */
function toRanked(row: SearchRow): Ranked {
  const text = (value: string | null) => value ?? '';
  const result = ((): SearchResult => {
    switch (row.type) {
      case 'patient':
        return { type: 'patient', id: row.id, title: text(row.t1), subtitle: text(row.t2), url: '' };
      case 'physician':
        return {
          type: 'physician',
          id: row.id,
          title: text(row.t1),
          subtitle: [`NPI ${text(row.t2)}`, row.t3].filter(Boolean).join(' · '),
          url: '',
        };
      case 'booking':
        return {
          type: 'booking',
          id: row.id,
          title: `${text(row.t1)} · ${text(row.t2)} ${text(row.t3)}`,
          subtitle: [`#${row.id}`, row.t4, row.t5, text(row.t6).replace('_', ' ')]
            .filter(Boolean)
            .join(' · '),
          url: '',
        };
      case 'referral':
        return {
          type: 'referral',
          id: row.id,
          title: `${text(row.t1)} · referral #${row.id}`,
          subtitle: [row.t2, row.t3, row.t4].filter(Boolean).join(' · '),
          url: '',
        };
    }
  })();
  return { score: row.score, rank: row.rank, result: { ...result, url: searchResultUrl(row.type, row.id) } };
}

/** Everything the caller may read that matches, ranked, before the limit. */
async function rankedMatches(ctx: AppContext, db: Knex, input: SearchInput): Promise<Ranked[]> {
  const terms = queryTerms(input.query);
  if (terms.length === 0) return [];
  const plan = planFor(ctx, input.query, input.limit);
  const rows = await readSearch(db, await matchTerms(db, terms), plan);
  const found: Ranked[] = [];
  for (const type of ['patient', 'physician'] as const) {
    const part = plan[type === 'patient' ? 'patients' : 'physicians'];
    if (part === undefined) continue;
    // Candidates come best first; the first `limit` of them are the ones shown when shared.
    const shown = rows.filter(
      (r) => r.type === type && r.role === (part === 'shared' ? 'candidate' : 'shown'),
    );
    found.push(...shown.slice(0, input.limit).map(toRanked));
  }
  found.push(...rows.filter((r) => r.type === 'booking' || r.type === 'referral').map(toRanked));
  return found;
}

/**
 * The best `limit` matches over everything the caller may read. One audit event names how many
 * records of each kind were shown, never the query (it may be a patient's name).
 */
export async function search(ctx: AppContext, input: SearchInput): Promise<SearchResult[]> {
  const { db } = accessFor(ctx);
  // The search's statements are named and run on their generic plan (statement.ts).
  const ranked = await rankedMatches(ctx, genericPlansOf(ctx), input);
  ranked.sort((a, b) => b.score - a.score || a.result.type.localeCompare(b.result.type) || a.rank - b.rank);
  const results = ranked.slice(0, input.limit).map((r) => r.result);
  await recordAccess(db, ctx, {
    action: 'search.query',
    entityType: 'patient',
    ids: results.filter((r) => r.type === 'patient').map((r) => r.id),
    details: {
      results: results.length,
      bookingIds: results
        .filter((r) => r.type === 'booking')
        .map((r) => r.id)
        .join(','),
      referralIds: results
        .filter((r) => r.type === 'referral')
        .map((r) => r.id)
        .join(','),
    },
  });
  return results;
}
