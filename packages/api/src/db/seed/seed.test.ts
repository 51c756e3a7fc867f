import {
  addDays,
  BOOKING_STATUSES,
  HOLDING_STATUSES,
  isValidStartDate,
  type TestType,
  testDates,
  todayInTimeZone,
} from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, getTestServer, type TestServer } from '../../test/server.js';
import { shouldSeedDemo } from './auto.js';
import { DEMO_SEED_MARKER, seedDemo } from './demo.js';
import { DEMO_PASSWORD, DEMO_USERS, demoPatients, planDemoBookings } from './plan.js';

const TIME_ZONE = 'America/New_York';
const holding = HOLDING_STATUSES.map((s) => `'${s}'`).join(', ');

describe('demo seed', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer();
  });
  afterAll(() => server.close());

  it('loads the demo data once; a second run changes nothing', async () => {
    const first = await seedDemo(server.db, { timeZone: TIME_ZONE });
    expect(first.skipped).toBe(false);
    expect(first.counts).toMatchObject({ users: 6, kits: 15, patients: 40 });
    expect(first.counts.bookings).toBeGreaterThanOrEqual(50);

    const second = await seedDemo(server.db, { timeZone: TIME_ZONE });
    expect(second).toEqual({ skipped: true, counts: first.counts });
    expect(await server.db('settings').where({ key: DEMO_SEED_MARKER }).first()).toBeDefined();
  });

  it('has bookings in every status', async () => {
    const statuses = await server.db('bookings').distinct('status').pluck('status');
    expect([...statuses].sort()).toEqual([...BOOKING_STATUSES].sort());
  });

  it('never lets two holding bookings hold one kit on the same date', async () => {
    const { rows } = await server.db.raw(`
      SELECT count(*)::int AS overlaps FROM bookings a JOIN bookings b
        ON a.id < b.id AND a.kit_id = b.kit_id
       AND a.status IN (${holding}) AND b.status IN (${holding})
       AND daterange(a.start_date, a.end_date + 2, '[)') && daterange(b.start_date, b.end_date + 2, '[)')`);
    expect(rows[0].overlaps).toBe(0);
  });

  it('books only valid start days, with the dates core computes', async () => {
    const bookings = await server
      .db('bookings')
      .select('start_date', 'end_date', 'return_date', 'test_type', 'kit_id');
    for (const b of bookings) {
      expect(isValidStartDate(b.start_date, b.test_type as TestType), b.start_date).toBe(true);
      expect(testDates(b.start_date, b.test_type as TestType)).toEqual({
        startDate: b.start_date,
        endDate: b.end_date,
        returnDate: b.return_date,
      });
      expect(b.kit_id).not.toBeNull();
    }
  });

  it('spreads bookings over three weeks back and three weeks ahead, with status matching the date', async () => {
    const today = todayInTimeZone(TIME_ZONE);
    const bookings = await server.db('bookings').select('status', 'start_date', 'return_date');
    for (const b of bookings) {
      expect(b.start_date >= addDays(today, -21) && b.start_date <= addDays(today, 21), b.start_date).toBe(
        true,
      );
      if (b.status === 'completed') expect(b.return_date < today).toBe(true);
      if (b.status === 'picked_up') expect(b.start_date < today && b.return_date >= today).toBe(true);
      if (b.status === 'pending' || b.status === 'confirmed') expect(b.start_date >= today).toBe(true);
    }
  });

  it('leaves the kits of picked-up bookings checked out', async () => {
    const kitStatuses = await server
      .db('bookings')
      .join('kits', 'kits.id', 'bookings.kit_id')
      .where('bookings.status', 'picked_up')
      .distinct('kits.status')
      .pluck('kits.status');
    expect(kitStatuses).toEqual(['in_use']);
  });

  it('gives the dashboard pickups on the next start day and returns on the next return day', async () => {
    const today = todayInTimeZone(TIME_ZONE);
    let startDay = today;
    while (!isValidStartDate(startDay, '2-day') && !isValidStartDate(startDay, '3-day'))
      startDay = addDays(startDay, 1);
    const pickups = await server
      .db('bookings')
      .where({ start_date: startDay })
      .whereNot('status', 'cancelled');
    expect(pickups.length).toBeGreaterThanOrEqual(3);
    const nextReturn = await server
      .db('bookings')
      .where('return_date', '>=', today)
      .whereNot('status', 'cancelled')
      .min({ day: 'return_date' })
      .first();
    const returns = await server
      .db('bookings')
      .where({ return_date: nextReturn?.day })
      .whereNot('status', 'cancelled');
    expect(returns.length).toBeGreaterThanOrEqual(2);
  });

  it('stores only synthetic patients', async () => {
    const patients = await server.db('patients').select('email', 'phone');
    expect(patients).toHaveLength(40);
    expect(new Set(patients.map((p) => p.email)).size).toBe(40);
    for (const p of patients) {
      expect(p.email).toMatch(/@example\.test$/);
      expect(p.phone).toMatch(/^\(555\) 555-01\d\d$/);
    }
  });

  it('lets every demo user sign in with the demo password, except the one whose password expired', async () => {
    for (const { username, role, passwordAgeDays } of DEMO_USERS) {
      const res = await server.request<{
        success: boolean;
        passwordExpired?: boolean;
        user?: { role: string };
      }>('POST', '/api/auth/login', { body: { username, password: DEMO_PASSWORD } });
      expect(res.status, username).toBe(200);
      if (passwordAgeDays === undefined) {
        expect(res.body.user?.role).toBe(role);
      } else {
        expect(res.body).toMatchObject({ success: false, passwordExpired: true });
        expect(res.body.user).toBeUndefined();
        expect(res.headers.getSetCookie().join(';')).not.toContain('wellrest_session=');
      }
    }
    expect(DEMO_USERS.filter((user) => user.passwordAgeDays !== undefined)).toHaveLength(1);
    const byEmail = await server.request('POST', '/api/auth/login', {
      body: { username: 'admin@wellrest.test', password: DEMO_PASSWORD },
    });
    expect(byEmail.status).toBe(200);
  });
});

describe('demo plan (pure)', () => {
  const kits = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15].map((id) => ({
    id,
    type: (['Somfit', 'Z-Machine', 'SleepView'] as const)[Math.floor((id - 1) / 5)] as 'Somfit',
  }));
  const patientIds = demoPatients().map((_, i) => i + 1);

  it('covers every status without overlapping holds, whatever weekday today is', () => {
    for (let offset = 0; offset < 14; offset++) {
      const today = addDays('2031-01-06', offset);
      const plan = planDemoBookings({ today, kits, patientIds });
      const statuses = new Set(plan.map((b) => b.status));
      expect([...statuses].sort(), today).toEqual([...BOOKING_STATUSES].sort());
      const holds = plan.filter((b) => (HOLDING_STATUSES as readonly string[]).includes(b.status));
      for (const a of holds) {
        for (const b of holds) {
          if (a === b || a.kitId !== b.kitId) continue;
          const overlap = a.startDate <= addDays(b.endDate, 1) && b.startDate <= addDays(a.endDate, 1);
          expect(overlap, `${today}: ${a.startDate} / ${b.startDate} on kit ${a.kitId}`).toBe(false);
        }
      }
    }
  });

  it('is deterministic for a given day', () => {
    expect(planDemoBookings({ today: '2031-01-08', kits, patientIds })).toEqual(
      planDemoBookings({ today: '2031-01-08', kits, patientIds }),
    );
  });
});

describe('automatic seeding at start', () => {
  it("seeds only a new, empty embedded database under 'auto'", async () => {
    const { db, dispose } = await freshDatabase('pglite');
    try {
      expect(await shouldSeedDemo({ seedDemo: 'auto', nodeEnv: 'development' }, db)).toBe(true);
      expect(await shouldSeedDemo({ seedDemo: 'false', nodeEnv: 'development' }, db)).toBe(false);
      expect(
        await shouldSeedDemo({ seedDemo: 'auto', nodeEnv: 'development' }, { ...db, engine: 'postgres' }),
      ).toBe(false);
      await db.knex('kits').insert({ kit_id: 'OWN-1', type: 'Somfit' });
      expect(await shouldSeedDemo({ seedDemo: 'auto', nodeEnv: 'development' }, db)).toBe(false);
      expect(await shouldSeedDemo({ seedDemo: 'true', nodeEnv: 'development' }, db)).toBe(true);
    } finally {
      await dispose();
    }
  });
});
