import { type RecordScope, type SearchInput, type SearchResult, searchResultUrl } from '@wellrest/core';
import sql, { raw, type Sql } from 'sql-template-tag';
import { auditInsertSelecting } from '../../audit/audit.js';
import { type AppContext, genericPlansOf } from '../../http/context.js';
import { SEARCH_VERSION_SQL } from '../../http/data-versions.js';
import { SessionUnconfirmed } from '../../http/session.js';
import { type SessionToConfirm, sessionHolds } from '../auth/sessions.js';
import { abilityOf, accessFor, recordAccess, scopeOf } from '../patients/access.js';
import { keptMatchesOf, matchesOf } from './matches-cache.js';
import { RELATED_CANDIDATES, typedNumber } from './matching.js';
import { readSearch, type SearchPlan, type SearchRow } from './statement.js';
import { type QueryTerm, queryTerms } from './words.js';

// The global search (spec §2 search dialog): patients, physicians and kits matched word by word
// through the search index in PostgreSQL (words.ts, migration 0520), ranked, and limited to what
// the caller may see; bookings and referrals of what matched are read in the same statement
// (statement.ts).

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
function toResult(row: SearchRow): SearchResult {
  const text = (value: string | null) => value ?? '';
  const url = searchResultUrl(row.type, row.id);
  switch (row.type) {
    case 'patient':
      return { type: 'patient', id: row.id, title: text(row.t1), subtitle: text(row.t2), url };
    case 'physician':
      return {
        type: 'physician',
        id: row.id,
        title: text(row.t1),
        subtitle: [`NPI ${text(row.t2)}`, row.t3].filter(Boolean).join(' · '),
        url,
      };
    case 'booking':
      return {
        type: 'booking',
        id: row.id,
        title: `${text(row.t1)} · ${text(row.t2)} ${text(row.t3)}`,
        subtitle: [`#${row.id}`, row.t4, row.t5, text(row.t6).replace('_', ' ')].filter(Boolean).join(' · '),
        url,
      };
    case 'referral':
      return {
        type: 'referral',
        id: row.id,
        title: `${text(row.t1)} · referral #${row.id}`,
        subtitle: [row.t2, row.t3, row.t4].filter(Boolean).join(' · '),
        url,
      };
  }
}

const SEARCH_AUDIT = { action: 'search.query', outcome: 'success', entityType: 'patient' } as const;

/**
 * The audit event of a search, written by the statement that reads the results (statement.ts):
 * how many records of each kind were shown and which, never the query (it may be a patient's
 * name). The same event `recordAccess` writes (patients/access.ts), computed over `shown`.
 */
function auditOfShown(ctx: AppContext, condition: Sql | undefined): Sql {
  const listed = (type: SearchRow['type']) =>
    raw(`coalesce(string_agg(id::text, ',' ORDER BY ord) FILTER (WHERE type = '${type}'), '')`);
  const patients = raw(`count(*) FILTER (WHERE type = 'patient')`);
  return auditInsertSelecting(ctx, SEARCH_AUDIT, {
    from: raw('shown'),
    entityId: sql`CASE WHEN ${patients} = 1 THEN min(id) FILTER (WHERE type = 'patient')::text END`,
    details: sql`jsonb_build_object('results', count(*), 'bookingIds', ${listed('booking')},
      'referralIds', ${listed('referral')}, 'count', ${patients}, 'ids', ${listed('patient')})`,
    having: condition,
  });
}

/**
 * A search on a session resumed from this process's memory (http/session.ts): the words' matches
 * kept (matches-cache.ts) and the records read in one statement that confirms both still hold,
 * the session (auth/sessions.ts sessionHolds) and the vocabulary the matches were kept under.
 * Anything else (no matches kept, nothing that could match, a condition that failed) throws
 * SessionUnconfirmed before anything is shown or written, and the request runs again on its
 * session resumed in full.
 */
async function searchConfirming(
  ctx: AppContext,
  input: SearchInput,
  terms: QueryTerm[],
  session: SessionToConfirm,
): Promise<SearchResult[]> {
  const kept = terms.length > 0 ? keptMatchesOf(ctx, terms) : undefined;
  if (!kept) throw new SessionUnconfirmed();
  const plan = planFor(ctx, input.query, input.limit);
  const holds = sql`${sessionHolds(session)} AND ${raw(SEARCH_VERSION_SQL)} = ${kept.version}`;
  const read = await readSearch(genericPlansOf(ctx), kept.matches, plan, (c) => auditOfShown(ctx, c), holds);
  if (!read?.held) throw new SessionUnconfirmed();
  return read.rows.map(toResult);
}

/** The best `limit` matches over everything the caller may read, audited. */
export async function search(ctx: AppContext, input: SearchInput): Promise<SearchResult[]> {
  const terms = queryTerms(input.query);
  if (ctx.state.unconfirmed) return searchConfirming(ctx, input, terms, ctx.state.unconfirmed);
  if (terms.length > 0) {
    // The words are matched (or their matches kept, matches-cache.ts) and the answer read on
    // connections that keep each statement's generic plan (statement.ts): the matches come with
    // several words in the order that plan joins them best, the term with the fewest entries first.
    const generic = genericPlansOf(ctx);
    const matches = await matchesOf(ctx, generic, terms);
    const plan = planFor(ctx, input.query, input.limit);
    const read = await readSearch(generic, matches, plan, (condition) => auditOfShown(ctx, condition));
    if (read) return read.rows.map(toResult);
  }
  // Nothing could match: the search is audited all the same.
  const { db } = accessFor(ctx);
  await recordAccess(db, ctx, {
    ...SEARCH_AUDIT,
    ids: [],
    details: { results: 0, bookingIds: '', referralIds: '' },
  });
  return [];
}
