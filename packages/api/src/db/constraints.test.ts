import { addDays, testDates } from '@wellrest/core';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../test/server.js';
import type { Engine } from './connect.js';
import { migrationSource, migrations } from './migrations/index.js';

// The schema's guarantees, checked on the embedded engine always and on a PostgreSQL server too
// when DATABASE_URL is set: the same migrations must hold on both.
const engines: Engine[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/** The SQLSTATE a statement fails with, or 'ok'. */
async function sqlState(statement: PromiseLike<unknown>): Promise<string> {
  try {
    await statement;
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

describe.each(engines)('schema constraints on %s', (engine) => {
  let db: Knex;
  let dispose: () => Promise<void>;
  let patientId: number;
  let kitId: number;
  let otherKitId: number;

  // A Monday: a 2-day test ends Tuesday and holds its kit through Wednesday (maintenance day).
  const monday = '2031-03-03';
  const twoDay = testDates(monday, '2-day');

  const booking = (overrides: Record<string, unknown> = {}) => ({
    patient_id: patientId,
    kit_id: kitId,
    test_type: '2-day',
    kit_type: 'Somfit',
    status: 'confirmed',
    start_date: twoDay.startDate,
    end_date: twoDay.endDate,
    return_date: twoDay.returnDate,
    ...overrides,
  });
  const startingOn = (startDate: string, overrides: Record<string, unknown> = {}) => {
    const dates = testDates(startDate, '2-day');
    return booking({
      start_date: dates.startDate,
      end_date: dates.endDate,
      return_date: dates.returnDate,
      ...overrides,
    });
  };

  beforeAll(async () => {
    const fresh = await freshDatabase(engine);
    db = fresh.db.knex;
    dispose = fresh.dispose;
    [{ id: patientId }] = await db('patients')
      .insert({ name: 'Constraint Sample', email: 'constraint@example.test', phone: '(555) 555-0100' })
      .returning('id');
    [{ id: kitId }, { id: otherKitId }] = await db('kits')
      .insert([
        { kit_id: 'SOM-T01', type: 'Somfit' },
        { kit_id: 'SOM-T02', type: 'Somfit' },
      ])
      .returning('id');
    await db('bookings').insert(booking());
  });
  afterAll(() => dispose());

  it('applied every migration', async () => {
    const applied = await db('knex_migrations').orderBy('id').pluck('name');
    expect(applied).toEqual(migrations.map((m) => m.name));
  });

  it('refuses a second holding booking of the same kit on the same dates (23P01)', async () => {
    expect(await sqlState(db('bookings').insert(booking()))).toBe('23P01');
    expect(await sqlState(db('bookings').insert(booking({ status: 'pending' })))).toBe('23P01');
    expect(
      await sqlState(db('bookings').insert(startingOn(addDays(monday, -1), { status: 'picked_up' }))),
    ).toBe('23P01');
  });

  it('refuses a booking that starts on the maintenance day after the end date', async () => {
    const maintenanceDay = addDays(twoDay.endDate, 1);
    expect(await sqlState(db('bookings').insert(startingOn(maintenanceDay)))).toBe('23P01');
  });

  it('allows a booking that starts the day after the maintenance day', async () => {
    const next = addDays(twoDay.endDate, 2);
    const [row] = await db('bookings').insert(startingOn(next)).returning('id');
    expect(row.id).toBeGreaterThan(0);
    await db('bookings').where({ id: row.id }).delete();
  });

  it('allows overlapping bookings that hold nothing: cancelled, completed, or without a kit', async () => {
    for (const overrides of [{ status: 'cancelled' }, { status: 'completed' }, { kit_id: null }]) {
      expect(await sqlState(db('bookings').insert(booking(overrides))), JSON.stringify(overrides)).toBe('ok');
    }
  });

  it('allows the same dates on another kit', async () => {
    expect(await sqlState(db('bookings').insert(booking({ kit_id: otherKitId })))).toBe('ok');
  });

  it('refuses reviving a cancelled booking onto a held kit', async () => {
    const [row] = await db('bookings')
      .insert(booking({ status: 'cancelled' }))
      .returning('id');
    expect(await sqlState(db('bookings').where({ id: row.id }).update({ status: 'confirmed' }))).toBe(
      '23P01',
    );
  });

  it('refuses values outside every enum (23514)', async () => {
    const bad: Array<[string, PromiseLike<unknown>]> = [
      ['booking status', db('bookings').insert(booking({ status: 'lost', kit_id: null }))],
      ['test type', db('bookings').insert(booking({ test_type: '4-day', kit_id: null }))],
      ['booking kit type', db('bookings').insert(booking({ kit_type: 'Fitbit', kit_id: null }))],
      ['kit type', db('kits').insert({ kit_id: 'X-1', type: 'Fitbit' })],
      ['kit status', db('kits').insert({ kit_id: 'X-2', type: 'Somfit', status: 'borrowed' })],
      [
        'role',
        db('users').insert({ username: 'x', display_name: 'x', role: 'superuser', password_hash: 'h' }),
      ],
      [
        'gender',
        db('patients').insert({ name: 'x', email: 'x@example.test', phone: '1', gender: 'unknown' }),
      ],
      [
        'lead source',
        db('patients').insert({ name: 'x', email: 'x@example.test', phone: '1', lead_source: 'Facebook' }),
      ],
    ];
    for (const [what, statement] of bad) expect(await sqlState(statement), what).toBe('23514');
  });

  it('refuses an end date before the start date, or a return not after the end', async () => {
    expect(
      await sqlState(db('bookings').insert(booking({ kit_id: null, end_date: addDays(monday, -1) }))),
    ).toBe('23514');
    expect(
      await sqlState(db('bookings').insert(booking({ kit_id: null, return_date: twoDay.endDate }))),
    ).toBe('23514');
  });

  it('defaults a patient lead source to Direct and a kit to available', async () => {
    const [patient] = await db('patients')
      .insert({ name: 'Default Sample', email: 'default@example.test', phone: '(555) 555-0101' })
      .returning('lead_source');
    expect(patient.lead_source).toBe('Direct');
    const [kit] = await db('kits').insert({ kit_id: 'ZM-T01', type: 'Z-Machine' }).returning('status');
    expect(kit.status).toBe('available');
  });

  it('keeps usernames and emails unique regardless of letter case (23505)', async () => {
    const user = { display_name: 'U', role: 'staff', password_hash: 'h' };
    await db('users').insert({ ...user, username: 'Casey', email: 'casey@wellrest.test' });
    expect(await sqlState(db('users').insert({ ...user, username: 'CASEY' }))).toBe('23505');
    expect(
      await sqlState(db('users').insert({ ...user, username: 'casey2', email: 'Casey@WellRest.test' })),
    ).toBe('23505');
    // Many accounts may have no email.
    expect(
      await sqlState(
        db('users').insert([
          { ...user, username: 'n1' },
          { ...user, username: 'n2' },
        ]),
      ),
    ).toBe('ok');
    expect(await sqlState(db('kits').insert({ kit_id: 'SOM-T01', type: 'Somfit' }))).toBe('23505');
  });

  it('refuses a booking of a patient that does not exist (23503)', async () => {
    expect(await sqlState(db('bookings').insert(booking({ patient_id: 999_999, kit_id: null })))).toBe(
      '23503',
    );
  });

  it('returns calendar dates as YYYY-MM-DD strings and counts as numbers', async () => {
    const row = await db('bookings').orderBy('id').first('start_date', 'end_date', 'return_date');
    expect(row).toEqual({
      start_date: twoDay.startDate,
      end_date: twoDay.endDate,
      return_date: twoDay.returnDate,
    });
    const count = await db('bookings').count({ n: '*' }).first();
    expect(typeof count?.n).toBe('number');
  });

  it('keeps the audit trail append-only', async () => {
    await db('audit_events').insert({ action: 'auth.login', outcome: 'failure' });
    expect(await sqlState(db('audit_events').update({ outcome: 'success' }))).toBe('42501');
    expect(await sqlState(db('audit_events').delete())).toBe('42501');
  });
});

describe('migrations roll back and forward', () => {
  it('undoes every migration and applies them again', async () => {
    const { db, dispose } = await freshDatabase('pglite');
    try {
      await db.knex.migrate.rollback({ migrationSource }, true);
      expect(await db.knex.schema.hasTable('users')).toBe(false);
      await db.knex.migrate.latest({ migrationSource });
      expect(await db.knex.schema.hasTable('bookings')).toBe(true);
    } finally {
      await dispose();
    }
  });
});
