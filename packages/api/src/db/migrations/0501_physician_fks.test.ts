import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../test/server.js';
import type { Engine } from '../connect.js';
import * as physicianFks from './0501_physician_fks.js';

// Checked on the embedded engine always, and on a PostgreSQL server too when DATABASE_URL is set.
const engines: Engine[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

async function sqlState(statement: PromiseLike<unknown>): Promise<string> {
  try {
    await statement;
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

describe.each(engines)('physician foreign keys on %s', (engine) => {
  let db: Knex;
  let dispose: () => Promise<void>;
  let npi = 1_000_000_000;

  const physician = async (): Promise<number> => {
    npi++;
    const [row] = await db('physicians')
      .insert({ name: `Dr Sample ${npi}`, npi: String(npi) })
      .returning('id');
    return (row as { id: number }).id;
  };
  const patient = (physicianId: number | null) =>
    db('patients')
      .insert({
        name: 'Fk Sample',
        email: `fk-${npi}-${Math.random()}@example.test`,
        phone: '(555) 555-0101',
        physician_id: physicianId,
      })
      .returning('id');
  const user = (physicianId: number | null) =>
    db('users')
      .insert({
        username: `fk-${npi}-${Math.random().toString(36).slice(2)}`,
        display_name: 'Dr Sample',
        password_hash: 'not-a-real-hash',
        role: 'physician',
        physician_id: physicianId,
      })
      .returning('id');

  beforeAll(async () => {
    const fresh = await freshDatabase(engine);
    db = fresh.db.knex;
    dispose = fresh.dispose;
  });
  afterAll(() => dispose());

  it('refuses a patient or a login naming a physician that does not exist (23503)', async () => {
    const missing = (await physician()) + 1000;
    expect(await sqlState(patient(missing))).toBe('23503');
    expect(await sqlState(user(missing))).toBe('23503');
    const real = await physician();
    expect(await sqlState(patient(real))).toBe('ok');
    expect(await sqlState(user(real))).toBe('ok');
    expect(await sqlState(patient(null))).toBe('ok');
  });

  it('clears the links when a physician is deleted, keeping the patient and the login', async () => {
    const id = await physician();
    const [{ id: patientId }] = await patient(id);
    const [{ id: userId }] = await user(id);
    await db('physicians').where({ id }).delete();
    expect(await db('patients').where({ id: patientId }).first('physician_id')).toEqual({
      physician_id: null,
    });
    expect(await db('users').where({ id: userId }).first('physician_id')).toEqual({ physician_id: null });
  });

  it('clears links to physicians that are gone before adding the keys', async () => {
    await physicianFks.down(db);
    const kept = await physician();
    const gone = kept + 5000;
    const [{ id: orphanPatient }] = await patient(gone);
    const [{ id: linkedPatient }] = await patient(kept);
    const [{ id: orphanUser }] = await user(gone);
    await physicianFks.up(db);
    expect(await db('patients').where({ id: orphanPatient }).first('physician_id')).toEqual({
      physician_id: null,
    });
    expect(await db('users').where({ id: orphanUser }).first('physician_id')).toEqual({ physician_id: null });
    expect(await db('patients').where({ id: linkedPatient }).first('physician_id')).toEqual({
      physician_id: kept,
    });
    // And the keys hold again.
    expect(await sqlState(patient(gone))).toBe('23503');
  });
});
