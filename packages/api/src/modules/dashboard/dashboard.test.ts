import {
  AVAILABILITY_MAX_DAYS,
  AVAILABILITY_RANGE_DAYS,
  type AvailabilityDay,
  addDays,
  type DashboardStatsResponse,
  messages,
} from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertBooking,
  insertKits,
  insertPatient,
  practiceTodayForTests,
  wednesdayAhead,
} from '../../test/operations-fixtures.js';
import { countQueries } from '../../test/query-counter.js';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';

describe('dashboard API', () => {
  let server: TestServer;
  let staff: Agent;
  const today = practiceTodayForTests();
  let kits: { id: number; kitId: string }[];
  let pickupId: number;
  let returnId: number;

  beforeAll(async () => {
    server = await getTestServer();
    staff = await server.loginAs('staff');
    kits = await insertKits(server.db, 'Somfit', 4);
    await insertKits(server.db, 'SleepView', 1, 'retired');
    const ada = await insertPatient(server.db, { name: 'Ada Dashboard' });
    const ben = await insertPatient(server.db, { name: 'Ben Dashboard' });
    // Starts today (a pickup), holds kit 0.
    pickupId = await insertBooking(server.db, {
      patientId: ada.id,
      kitId: kits[0]?.id ?? null,
      kitType: 'Somfit',
      startDate: today,
    });
    // Started earlier; its kit comes back today or later and is held until then.
    returnId = await insertBooking(server.db, {
      patientId: ben.id,
      kitId: kits[1]?.id ?? null,
      kitType: 'Somfit',
      startDate: addDays(today, -1),
    });
    await insertBooking(server.db, {
      patientId: ben.id,
      kitId: kits[2]?.id ?? null,
      kitType: 'Somfit',
      startDate: addDays(today, 3),
      status: 'pending',
    });
    await insertBooking(server.db, {
      patientId: ben.id,
      kitId: kits[3]?.id ?? null,
      kitType: 'Somfit',
      startDate: addDays(today, 2),
      status: 'cancelled',
    });
  });
  afterAll(() => server.close());

  it('answers the stat cards in a constant number of queries', async () => {
    let stats: DashboardStatsResponse | undefined;
    const queries = await countQueries(server.db, async () => {
      stats = (await staff.request<DashboardStatsResponse>('GET', '/api/dashboard/stats')).body;
    });
    expect(stats).toMatchObject({
      totalPatients: 2,
      activeBookings: 3,
      pendingBookings: 1,
      todaysPickups: 1,
      totalKits: 5,
      kitsInUse: 2,
      availableKits: 2,
      kitsOnShelf: expect.any(Number),
      upcomingWeek: 1,
    });
    expect(typeof stats?.todaysReturns).toBe('number');
    // Session lookup and refresh, practice time zone, the bookings' aggregate query, and the kits
    // and today's holds that core's kitCounts counts (the numbers Inventory shows too).
    const baseline = await countQueries(server.db, () => staff.request('GET', '/api/auth/me'));
    expect(queries - baseline).toBeLessThanOrEqual(4);
  });

  it('gives 14 days of availability from today with pickups and drop-offs', async () => {
    const response = await staff.request<AvailabilityDay[]>('GET', '/api/dashboard/daily-availability');
    expect(response.status).toBe(200);
    const days = response.body;
    expect(days).toHaveLength(AVAILABILITY_RANGE_DAYS);
    expect(days[0]).toMatchObject({ date: today, label: messages.dates.today, availableUnits: 2 });
    expect(days[1]?.label).toBe(messages.dates.tomorrow);
    expect(days[0]?.pickups).toEqual([
      expect.objectContaining({
        id: pickupId,
        patientName: 'Ada Dashboard',
        kitId: kits[0]?.kitId,
        kitType: 'Somfit',
      }),
    ]);
    const dropoffs = days.flatMap((d) => d.dropoffs.map((x) => x.id));
    expect(dropoffs).toContain(returnId);
    // Cancelled bookings are neither picked up nor returned.
    expect(days.flatMap((d) => d.pickups).map((p) => p.patientName)).not.toContain(undefined);
    expect(days[2]?.pickups).toEqual([]);
    const event = await server.db('audit_events').where({ action: 'dashboard.availability' }).first();
    expect(event.details.ids).toContain(String(pickupId));
  });

  it('loads a constant number of queries however many bookings there are', async () => {
    // A change first, so both measured answers are computed rather than answered from memory.
    await insertKits(server.db, 'Z-Machine', 1);
    const few = await countQueries(server.db, () =>
      staff.request('GET', '/api/dashboard/daily-availability'),
    );
    const more = await insertKits(server.db, 'Z-Machine', 10);
    for (const kit of more) {
      const p = await insertPatient(server.db);
      await insertBooking(server.db, {
        patientId: p.id,
        kitId: kit.id,
        kitType: 'Z-Machine',
        startDate: addDays(today, 4),
      });
    }
    const many = await countQueries(server.db, () =>
      staff.request('GET', '/api/dashboard/daily-availability'),
    );
    expect(many).toBe(few);
    // Unchanged since: the answer comes from memory, without the four data queries and the
    // transaction that reads the version under the lock (begin, select, commit).
    const again = await countQueries(server.db, () =>
      staff.request('GET', '/api/dashboard/daily-availability'),
    );
    expect(again).toBe(many - 7);
  });

  it('is closed to physicians and to anonymous callers', async () => {
    const physician = await server.loginAs('physician');
    expect((await physician.request('GET', '/api/dashboard/stats')).status).toBe(403);
    expect((await server.request('GET', '/api/dashboard/daily-availability')).status).toBe(401);
  });
});

describe('daily availability range and the cleaning gate', () => {
  let server: TestServer;
  let staff: Agent;
  const today = practiceTodayForTests();
  const unitsOf = async (query = ''): Promise<number[]> => {
    const response = await staff.request<AvailabilityDay[]>(
      'GET',
      `/api/dashboard/daily-availability${query}`,
    );
    expect(response.status).toBe(200);
    return response.body.map((d) => d.availableUnits);
  };

  beforeAll(async () => {
    server = await getTestServer();
    staff = await server.loginAs('staff');
    await insertKits(server.db, 'Somfit', 3);
  });
  afterAll(() => server.close());

  it('answers the number of days asked for, from 1 to 60', async () => {
    expect(await unitsOf('?days=1')).toEqual([3]);
    const long = await staff.request<AvailabilityDay[]>(
      'GET',
      `/api/dashboard/daily-availability?days=${AVAILABILITY_MAX_DAYS}`,
    );
    expect(long.body).toHaveLength(AVAILABILITY_MAX_DAYS);
    expect(long.body.at(-1)?.date).toBe(addDays(today, AVAILABILITY_MAX_DAYS - 1));
    expect(await unitsOf()).toHaveLength(AVAILABILITY_RANGE_DAYS);
  });

  it('refuses a range outside 1 to 60 days with a 400 naming the field', async () => {
    for (const days of ['0', '61', '2.5', 'soon', '']) {
      const response = await staff.request('GET', `/api/dashboard/daily-availability?days=${days}`);
      expect(response.status).toBe(400);
      expect(Object.keys(response.body.fields as Record<string, string>)).toEqual(['days']);
    }
  });

  it('counts kits in maintenance, lost or retired as unavailable on every day', async () => {
    await insertKits(server.db, 'SleepView', 1, 'maintenance');
    await insertKits(server.db, 'SleepView', 1, 'lost');
    await insertKits(server.db, 'SleepView', 1, 'retired');
    expect(await unitsOf('?days=5')).toEqual([3, 3, 3, 3, 3]);
  });

  it('keeps a returned kit out until its cleaning is due, then counts it again', async () => {
    const [kit] = await insertKits(server.db, 'Z-Machine', 1, 'cleaning');
    await server
      .db('kits')
      .where({ id: kit?.id })
      .update({ cleaning_since: today, cleaning_due_on: addDays(today, 1) });
    // Out today and on its due day (tomorrow); ready for a test from the day after.
    expect(await unitsOf('?days=4')).toEqual([3, 3, 4, 4]);
  });

  it('keeps a kit whose cleaning is overdue out on every day', async () => {
    const [kit] = await insertKits(server.db, 'Z-Machine', 1, 'cleaning');
    await server
      .db('kits')
      .where({ id: kit?.id })
      .update({ cleaning_since: addDays(today, -5), cleaning_due_on: addDays(today, -4) });
    expect(await unitsOf('?days=4')).toEqual([3, 3, 4, 4]);
  });

  it('counts the kits again once their cleaning is logged', async () => {
    const technician = await server.loginAs('technician');
    const waiting: { id: number }[] = await server.db('kits').where({ status: 'cleaning' }).select('id');
    expect(waiting).toHaveLength(2);
    for (const { id } of waiting) {
      expect((await technician.request('POST', `/api/kits/${id}/cleanings`, { body: {} })).status).toBe(201);
    }
    expect(await unitsOf('?days=4')).toEqual([5, 5, 5, 5]);
  });
});

describe('daily availability answered from memory until something changes', () => {
  let server: TestServer;
  let staff: Agent;
  let patient: { id: number };

  const availability = (headers: Record<string, string> = {}) =>
    staff.request<AvailabilityDay[]>('GET', '/api/dashboard/daily-availability', { headers });
  const pickups = (days: AvailabilityDay[]) => days.flatMap((d) => d.pickups);
  const audited = async () =>
    Number(
      (await server.db('audit_events').where({ action: 'dashboard.availability' }).count({ n: '*' }))[0]?.n,
    );

  beforeAll(async () => {
    server = await getTestServer();
    staff = await server.loginAs('staff');
    await insertKits(server.db, 'Somfit', 2);
    patient = await insertPatient(server.db, { name: 'Cora Cached' });
  });
  afterAll(() => server.close());

  it('answers repeated requests alike and audits every one of them', async () => {
    const before = await audited();
    const first = await availability();
    const second = await availability();
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await audited()).toBe(before + 2);
  });

  it('shows a booking made through the API in the very next answer', async () => {
    await availability();
    const startDate = wednesdayAhead(0);
    const created = await staff.request<{ id: number }>('POST', '/api/bookings', {
      body: { patientId: patient.id, testType: '2-day', kitType: 'Somfit', startDate },
    });
    expect(created.status).toBe(201);
    const after = await availability();
    expect(pickups(after.body).map((p) => p.id)).toContain(created.body.id);
    expect(after.body.find((d) => d.date === startDate)?.availableUnits).toBe(1);
  });

  it('shows a patient renamed through the API in the very next answer', async () => {
    expect(pickups((await availability()).body).map((p) => p.patientName)).toContain('Cora Cached');
    const renamed = await staff.request('PATCH', `/api/patients/${patient.id}`, {
      body: { name: 'Cora Renamed' },
    });
    expect(renamed.status).toBe(200);
    const names = pickups((await availability()).body).map((p) => p.patientName);
    expect(names).toContain('Cora Renamed');
    expect(names).not.toContain('Cora Cached');
  });

  // Needs a second connection to hold a change open while the API answers: PostgreSQL only (the
  // embedded engine has one connection, so no change can be in flight during a request there).
  it.runIf(Boolean(process.env.DATABASE_URL))(
    'does not keep an answer computed while a change is in flight',
    async () => {
      const [kit] = await insertKits(server.db, 'SleepView', 1);
      const other = await insertPatient(server.db, { name: 'Dell Inflight' });
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let inserted: () => void = () => undefined;
      const insertedOnce = new Promise<void>((resolve) => {
        inserted = resolve;
      });
      // A writer that has written (and so taken its version number) but not yet committed.
      const writer = server.db.transaction(async (trx) => {
        await insertBooking(trx, {
          patientId: other.id,
          kitId: kit?.id ?? null,
          kitType: 'SleepView',
          startDate: wednesdayAhead(0),
        });
        inserted();
        await released;
      });
      await insertedOnce;
      const during = await availability();
      expect(pickups(during.body).map((p) => p.patientName)).not.toContain('Dell Inflight');
      release();
      await writer;
      const after = await availability();
      expect(pickups(after.body).map((p) => p.patientName)).toContain('Dell Inflight');
    },
  );

  it('sends the answer compressed when the client accepts it, and the same answer', async () => {
    const plain = await availability({ 'accept-encoding': 'identity' });
    expect(plain.headers.get('content-encoding')).toBeNull();
    for (const encoding of ['br', 'gzip']) {
      const compressed = await availability({ 'accept-encoding': encoding });
      expect(compressed.headers.get('content-encoding')).toBe(encoding);
      expect(compressed.headers.get('vary')).toContain('Accept-Encoding');
      expect(compressed.body).toEqual(plain.body);
    }
  });
});
