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

  it('answers the stat cards in one aggregate query', async () => {
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
      upcomingWeek: 1,
    });
    expect(typeof stats?.todaysReturns).toBe('number');
    // Session lookup and refresh, practice time zone, and the one statistics query.
    const baseline = await countQueries(server.db, () => staff.request('GET', '/api/auth/me'));
    expect(queries - baseline).toBeLessThanOrEqual(2);
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
