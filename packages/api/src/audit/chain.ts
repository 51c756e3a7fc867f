import type { Knex } from 'knex';
import { AUDIT_CHAIN_GENESIS, AUDIT_CHAIN_LANES } from '../db/migrations/0850_audit_chain.js';

// Walks the audit hash chains (see migration 0850: one per lane) and reports the first link that
// does not hold.
// The hashes are recomputed by the database's own `audit_event_digest`, the function the trigger
// used, so the check and the writer cannot drift apart.

export type ChainBreakReason =
  /** The event's content no longer hashes to its link: it was edited. */
  | 'content_changed'
  /** A link does not name the hash of the link before it: a link was edited, removed or inserted. */
  | 'link_broken'
  /** A sequence number is missing: a link was removed. */
  | 'sequence_gap'
  /** A link names an event that is gone. */
  | 'event_missing'
  /** An event has no link: it was written with the chain's trigger switched off. */
  | 'event_unchained';

export interface ChainBreak {
  lane: number | null;
  seq: number | null;
  eventId: number;
  reason: ChainBreakReason;
}

export interface ChainVerification {
  ok: boolean;
  /** Links checked (all of them when the chain holds; in a broken lane, those before the break). */
  checked: number;
  /** The last link of each lane used: lane, number and hash, worth writing down outside the system. */
  heads: { lane: number; seq: number; hash: string }[];
  firstBroken: ChainBreak | null;
  verifiedAt: string;
  durationMs: number;
}

const BATCH = 20_000;

interface LinkRow {
  seq: string;
  event_id: string;
  prev_hash: string;
  hash: string;
  present: boolean;
  computed: string | null;
}

/** Walks one lane from its first link; its first break, if any. */
async function verifyLane(
  db: Knex,
  lane: number,
): Promise<{ checked: number; head: { seq: number; hash: string } | null; broken: ChainBreak | null }> {
  let expectedSeq = 1;
  let prevHash = AUDIT_CHAIN_GENESIS;
  let head: { seq: number; hash: string } | null = null;
  for (;;) {
    const { rows } = (await db.raw(
      `SELECT c.seq, c.event_id, c.prev_hash, c.hash, e.id IS NOT NULL AS present,
              CASE WHEN e.id IS NULL THEN NULL ELSE audit_event_digest(c.prev_hash, c.lane, c.seq, e) END AS computed
         FROM audit_chain c LEFT JOIN audit_events e ON e.id = c.event_id
        WHERE c.lane = ? AND c.seq >= ? ORDER BY c.seq LIMIT ?`,
      [lane, expectedSeq, BATCH],
    )) as { rows: LinkRow[] };
    for (const row of rows) {
      const seq = Number(row.seq);
      let reason: ChainBreakReason | null = null;
      if (seq !== expectedSeq) reason = 'sequence_gap';
      else if (row.prev_hash !== prevHash) reason = 'link_broken';
      else if (!row.present) reason = 'event_missing';
      else if (row.computed !== row.hash) reason = 'content_changed';
      if (reason)
        return {
          checked: expectedSeq - 1,
          head,
          broken: { lane, seq, eventId: Number(row.event_id), reason },
        };
      prevHash = row.hash;
      head = { seq, hash: row.hash };
      expectedSeq = seq + 1;
    }
    if (rows.length < BATCH) return { checked: expectedSeq - 1, head, broken: null };
  }
}

export async function verifyAuditChain(db: Knex): Promise<ChainVerification> {
  const started = performance.now();
  let checked = 0;
  const heads: ChainVerification['heads'] = [];
  const breaks: ChainBreak[] = [];
  for (let lane = 0; lane < AUDIT_CHAIN_LANES; lane++) {
    const result = await verifyLane(db, lane);
    checked += result.checked;
    if (result.head) heads.push({ lane, ...result.head });
    if (result.broken) breaks.push(result.broken);
  }
  // Every committed event has its link (written in the same transaction), so one without is a
  // row slipped in past the trigger.
  const unchained = await db('audit_events as e')
    .whereNotExists(db('audit_chain as c').whereRaw('c.event_id = e.id'))
    .orderBy('e.id')
    .first<{ id: string } | undefined>('e.id');
  if (unchained)
    breaks.push({ lane: null, seq: null, eventId: Number(unchained.id), reason: 'event_unchained' });
  // The earliest event among the breaks found.
  const firstBroken = breaks.sort((a, b) => a.eventId - b.eventId)[0] ?? null;

  return {
    ok: firstBroken === null,
    checked,
    heads,
    firstBroken,
    verifiedAt: new Date().toISOString(),
    durationMs: Math.round(performance.now() - started),
  };
}
