import { inventoryMessages, KIT_STATS_MAX_DAYS } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertBooking,
  insertKits,
  insertPatient,
  practiceTodayForTests,
} from '../../test/operations-fixtures.js';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';
import type { KitStats } from './store.js';

describe('kit statistics and the inventory overview', () => {
  let server: TestServer;
  let scheduler: Agent;
  beforeAll(async () => {
    server = await getTestServer();
    scheduler = await server.loginAs('scheduler');
  });
  afterAll(() => server.close());

  it('counts days in use, cleaning and idle per kit and per type over a known period', async () => {
    // Two Somfit kits in service all of March 2025 (10 days: the 1st to the 10th).
    const [a, b] = await insertKits(server.db, 'Somfit', 2);
    await server.db('kits').whereIn('id', [a?.id, b?.id]).update({ created_at: '2025-01-01T12:00:00Z' });
    const patient = await insertPatient(server.db);
    // Kit a: a 2-day test on the 3rd-4th (completed), cleaning from the 5th, cleaned on the 7th;
    // a 3-day test from the 9th (9th-11th: two days inside the period); a cancelled one ignored.
    await insertBooking(server.db, {
      patientId: patient.id,
      kitId: a?.id ?? null,
      kitType: 'Somfit',
      startDate: '2025-03-03',
      status: 'completed',
    });
    await insertBooking(server.db, {
      patientId: patient.id,
      kitId: a?.id ?? null,
      kitType: 'Somfit',
      startDate: '2025-03-09',
      testType: '3-day',
      status: 'completed',
    });
    await insertBooking(server.db, {
      patientId: patient.id,
      kitId: a?.id ?? null,
      kitType: 'Somfit',
      startDate: '2025-03-06',
      status: 'cancelled',
    });
    await server.db('kit_cleanings').insert({
      kit_id: a?.id,
      started_on: '2025-03-05',
      due_on: '2025-03-05',
      cleaned_on: '2025-03-07',
    });
    // Kit b: maintenance logged on the 4th (one day), and once after the period (not counted).
    await server.db('kit_maintenance').insert([
      { kit_id: b?.id, done_on: '2025-03-04' },
      { kit_id: b?.id, done_on: '2025-03-20' },
    ]);
    // A kit added on the 6th is in service five days.
    const [late] = await insertKits(server.db, 'Somfit', 1);
    await server.db('kits').where({ id: late?.id }).update({ created_at: '2025-03-06T15:00:00Z' });

    const res = await scheduler.request<KitStats>(
      'GET',
      '/api/kit-stats?from=2025-03-01&to=2025-03-10&kitType=Somfit',
    );
    expect(res.status).toBe(200);
    const byLabel = new Map(res.body.byKit.map((k) => [k.kitLabel, k]));
    expect(byLabel.get(a?.kitId as string)).toMatchObject({
      daysInService: 10,
      daysInUse: 4,
      daysCleaning: 2,
      daysMaintenance: 0,
      idleDays: 4,
      bookings: 2,
      // Held: the 3rd, 4th and maintenance day 5th; the 9th and 10th. Five of ten days.
      heldDays: 5,
      utilisation: 0.5,
    });
    expect(byLabel.get(b?.kitId as string)).toMatchObject({
      daysInUse: 0,
      daysCleaning: 0,
      daysMaintenance: 1,
      idleDays: 9,
      bookings: 0,
    });
    expect(byLabel.get(late?.kitId as string)).toMatchObject({ daysInService: 5, idleDays: 5 });
    const somfit = res.body.byType.find((t) => t.kitType === 'Somfit');
    // Other Somfit kits of this database came into service today, after the period.
    expect(somfit).toEqual({
      kitType: 'Somfit',
      kits: 3,
      daysInService: 25,
      daysInUse: 4,
      daysCleaning: 2,
      daysMaintenance: 1,
      idleDays: 18,
      bookings: 2,
      // Held kit-days over in-service kit-days (core's kitUtilisation): 5 / 25.
      heldDays: 5,
      utilisation: 0.2,
    });
  });

  it('counts a kit in service from its first test when it was recorded later', async () => {
    const [recorded] = await insertKits(server.db, 'Z-Machine', 1);
    await server.db('kits').where({ id: recorded?.id }).update({ created_at: '2025-04-08T12:00:00Z' });
    const patient = await insertPatient(server.db);
    await insertBooking(server.db, {
      patientId: patient.id,
      kitId: recorded?.id ?? null,
      kitType: 'Z-Machine',
      startDate: '2025-04-03',
      status: 'completed',
    });
    const res = await scheduler.request<KitStats>(
      'GET',
      '/api/kit-stats?from=2025-04-01&to=2025-04-10&kitType=Z-Machine',
    );
    expect(res.status).toBe(200);
    // In service from the 3rd (its first test) to the 10th: eight days, two of them in use.
    expect(res.body.byKit.find((k) => k.kitId === recorded?.id)).toMatchObject({
      daysInService: 8,
      daysInUse: 2,
      idleDays: 6,
      bookings: 1,
    });
  });

  it('refuses a period the wrong way round or too long', async () => {
    const reversed = await scheduler.request('GET', '/api/kit-stats?from=2025-03-10&to=2025-03-01');
    expect(reversed.status).toBe(400);
    expect(reversed.body.fields).toEqual({ to: inventoryMessages.statsPeriodOrder });
    const long = await scheduler.request('GET', '/api/kit-stats?from=2024-01-01&to=2025-12-31');
    expect(long.body.fields).toEqual({ to: inventoryMessages.statsPeriodTooLong(KIT_STATS_MAX_DAYS) });
    const missing = await scheduler.request('GET', '/api/kit-stats');
    expect(Object.keys(missing.body.fields as object).sort()).toEqual(['from', 'to']);
  });

  it('lists overdue returns, counts by status and kits due for scheduled maintenance', async () => {
    const local = await getTestServer();
    try {
      const agent = await local.loginAs('scheduler');
      const [out, idle] = await insertKits(local.db, 'SleepView', 2);
      await local.db('kits').where({ id: out?.id }).update({ status: 'in_use' });
      await local.db('kits').where({ id: idle?.id }).update({ created_at: '2025-01-01T12:00:00Z' });
      const patient = await insertPatient(local.db);
      const late = await insertBooking(local.db, {
        patientId: patient.id,
        kitId: out?.id ?? null,
        kitType: 'SleepView',
        startDate: '2025-03-03',
        status: 'picked_up',
      });
      const schedule = await agent.request('POST', '/api/maintenance-schedules', {
        body: { kitType: 'SleepView', everyDays: 30 },
      });
      expect(schedule.status).toBe(201);
      expect(schedule.body).toMatchObject({ kitType: 'SleepView', everyDays: 30 });
      const bad = await agent.request('POST', '/api/maintenance-schedules', {
        body: { kitType: 'x', everyDays: 0 },
      });
      expect(Object.keys(bad.body.fields as object).sort()).toEqual(['everyDays', 'kitType']);

      const overview = await agent.request<{
        counts: Record<string, number>;
        overdueReturns: { bookingId: number; daysOverdue: number }[];
        maintenanceDue: { kitId: number }[];
      }>('GET', '/api/inventory/overview');
      expect(overview.status).toBe(200);
      expect(overview.body.counts).toMatchObject({ in_use: 1, available: 1, cleaning: 0 });
      expect(overview.body.overdueReturns.map((r) => r.bookingId)).toEqual([late]);
      expect(overview.body.overdueReturns[0]?.daysOverdue).toBeGreaterThan(0);
      expect(overview.body.maintenanceDue.map((d) => d.kitId)).toEqual([idle?.id]);

      // Maintenance logged today: no longer due.
      await agent.request('POST', `/api/kits/${idle?.id}/maintenance`, { body: {} });
      const listed = await agent.request<{ schedules: unknown[]; due: unknown[] }>(
        'GET',
        '/api/maintenance-schedules',
      );
      expect(listed.body.schedules).toHaveLength(1);
      expect(listed.body.due).toEqual([]);
      expect(practiceTodayForTests() > '2025-03-06').toBe(true);

      const physician = await local.loginAs('physician');
      expect((await physician.request('GET', '/api/inventory/overview')).status).toBe(403);
      expect((await physician.request('GET', '/api/kit-stats?from=2025-03-01&to=2025-03-02')).status).toBe(
        403,
      );
    } finally {
      await local.close();
    }
  });
});
