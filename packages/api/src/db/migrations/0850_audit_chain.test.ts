import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../../audit/chain.js';
import { freshDatabase } from '../../test/server.js';
import type { Engine } from '../connect.js';
import * as auditChain from './0850_audit_chain.js';
import * as auditIndexes from './0851_audit_log_indexes.js';

// Checked on the embedded engine always, and on a PostgreSQL server too when DATABASE_URL is set.
const engines: Engine[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

describe.each(engines)('audit chain migration on %s', (engine) => {
  let db: Knex;
  let dispose: () => Promise<void>;

  beforeAll(async () => {
    const fresh = await freshDatabase(engine);
    db = fresh.db.knex;
    dispose = fresh.dispose;
  });
  afterAll(() => dispose());

  it('chains the events recorded before it, then every new one', async () => {
    await auditIndexes.down(db);
    await auditChain.down(db);
    await db('audit_events').insert(
      Array.from({ length: 25 }, (_, i) => ({
        action: 'auth.login',
        outcome: i % 3 === 0 ? 'denied' : 'success',
        actor_username: `user${i}`,
        details: JSON.stringify({ n: i, note: 'quoted "text", commas' }),
      })),
    );
    await auditChain.up(db);
    await auditIndexes.up(db);
    const first = await verifyAuditChain(db);
    expect(first).toMatchObject({ ok: true, checked: 25, firstBroken: null });

    await db('audit_events').insert({ action: 'auth.logout', outcome: 'success', details: '{}' });
    // The earlier events form lane 0 in id order; the new one opens or extends its own lane.
    const lane0 = await db('audit_chain')
      .where({ lane: 0 })
      .orderBy('seq')
      .select('seq', 'prev_hash', 'hash');
    expect(lane0.slice(0, 25).map((l) => Number(l.seq))).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(lane0[0]?.prev_hash).toBe(auditChain.AUDIT_CHAIN_GENESIS);
    for (let i = 1; i < lane0.length; i++) expect(lane0[i]?.prev_hash).toBe(lane0[i - 1]?.hash);
    const newest = await db('audit_chain').orderBy('event_id', 'desc').first('lane', 'seq', 'prev_hash');
    if (newest.lane === 0) expect(Number(newest.seq)).toBe(26);
    else {
      expect(Number(newest.seq)).toBe(1);
      expect(newest.prev_hash).toBe(auditChain.AUDIT_CHAIN_GENESIS);
    }
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, checked: 26 });
  });
});
