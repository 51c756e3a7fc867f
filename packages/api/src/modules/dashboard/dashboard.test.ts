import {
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
