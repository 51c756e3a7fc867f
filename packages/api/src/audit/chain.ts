import type { Knex } from 'knex';
import { AUDIT_CHAIN_GENESIS } from '../db/migrations/0850_audit_chain.js';

// Walks the audit hash chain (see migration 0850) and reports the first link that does not hold.
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
  seq: number | null;
  eventId: number;
  reason: ChainBreakReason;
}

export interface ChainVerification {
  ok: boolean;
  /** Links checked before the first break (all of them when the chain holds). */
  checked: number;
  /** The last link: its number and hash, worth writing down outside the system. */
  head: { seq: number; hash: string } | null;
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

export async function verifyAuditChain(db: Knex): Promise<ChainVerification> {
  const started = performance.now();
  let expectedSeq = 1;
  let prevHash = AUDIT_CHAIN_GENESIS;
  let firstBroken: ChainBreak | null = null;
  let head: ChainVerification['head'] = null;

  walk: for (;;) {
    const { rows } = (await db.raw(
      `SELECT c.seq, c.event_id, c.prev_hash, c.hash, e.id IS NOT NULL AS present,
              CASE WHEN e.id IS NULL THEN NULL ELSE audit_event_digest(c.prev_hash, c.seq, e) END AS computed
         FROM audit_chain c LEFT JOIN audit_events e ON e.id = c.event_id
        WHERE c.seq >= ? ORDER BY c.seq LIMIT ?`,
      [expectedSeq, BATCH],
    )) as { rows: LinkRow[] };
    for (const row of rows) {
      const seq = Number(row.seq);
      const eventId = Number(row.event_id);
      let reason: ChainBreakReason | null = null;
      if (seq !== expectedSeq) reason = 'sequence_gap';
      else if (row.prev_hash !== prevHash) reason = 'link_broken';
      else if (!row.present) reason = 'event_missing';
      else if (row.computed !== row.hash) reason = 'content_changed';
      if (reason) {
        firstBroken = { seq, eventId, reason };
        break walk;
      }
      prevHash = row.hash;
      head = { seq, hash: row.hash };
      expectedSeq = seq + 1;
    }
    if (rows.length < BATCH) break;
  }

  if (!firstBroken) {
    // Every committed event has its link (written in the same transaction), so one without is a
    // row slipped in past the trigger.
    const unchained = await db('audit_events as e')
      .whereNotExists(db('audit_chain as c').whereRaw('c.event_id = e.id'))
      .orderBy('e.id')
      .first<{ id: string } | undefined>('e.id');
    if (unchained) firstBroken = { seq: null, eventId: Number(unchained.id), reason: 'event_unchained' };
  }

  return {
    ok: firstBroken === null,
    checked: expectedSeq - 1,
    head,
    firstBroken,
    verifiedAt: new Date().toISOString(),
    durationMs: Math.round(performance.now() - started),
  };
}
