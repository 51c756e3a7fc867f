import {
  type InventoryKitHistoryEntry,
  inventoryMessages,
  type KitScan,
  type KitStatus,
  type KitType,
} from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertBooking,
  insertKits,
  insertPatient,
  practiceTodayForTests,
} from '../../test/operations-fixtures.js';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';
import type { InventoryKit } from '../kits/store.js';

type ScanAnswer = { scan: KitScan; error?: string };
type Overview = {
  counts: Record<KitStatus, number>;
  countsByType: Record<KitType, Record<KitStatus, number>>;
  total: number;
};

describe('inventory: the kit life cycle through scans, cleaning and status', () => {
  let server: TestServer;
  let scheduler: Agent;
  let technician: Agent;
  beforeAll(async () => {
    server = await getTestServer();
    scheduler = await server.loginAs('scheduler');
    technician = await server.loginAs('technician');
  });
  afterAll(() => server.close());

  const scan = (agent: Agent, body: Record<string, unknown>) =>
    agent.request<ScanAnswer>('POST', '/api/scans', { body });

  it('counts kits by status for each type', async () => {
    const local = await getTestServer();
    try {
      const agent = await local.loginAs('scheduler');
      const [a, b] = await insertKits(local.db, 'Somfit', 2);
      await insertKits(local.db, 'SleepView', 1, 'maintenance');
      await local.db('kits').where({ id: a?.id }).update({ status: 'cleaning' });
      await local.db('kits').where({ id: b?.id }).update({ status: 'lost' });
      const overview = await agent.request<Overview>('GET', '/api/inventory/overview');
      expect(overview.status).toBe(200);
      expect(overview.body.countsByType.Somfit).toMatchObject({ cleaning: 1, lost: 1, available: 0 });
      expect(overview.body.countsByType.SleepView).toMatchObject({ maintenance: 1 });
      expect(overview.body.countsByType['Z-Machine']).toMatchObject({ available: 0, in_use: 0 });
      const summed = Object.values(overview.body.countsByType).reduce(
        (sum, byStatus) => sum + Object.values(byStatus).reduce((a2, n) => a2 + n, 0),
        0,
      );
      expect(summed).toBe(overview.body.total);
      expect(overview.body.counts.cleaning).toBe(1);
    } finally {
      await local.close();
    }
  });

  it('keeps a returned kit from going out again until its cleaning is logged', async () => {
    const [kit] = await insertKits(server.db, 'Z-Machine', 1);
    const patient = await insertPatient(server.db);
    const bookingId = await insertBooking(server.db, {
      patientId: patient.id,
      kitId: kit?.id ?? null,
      kitType: 'Z-Machine',
      startDate: practiceTodayForTests(),
    });
    const label = kit?.kitId as string;
    expect((await scan(technician, { code: label, mode: 'checkout', bookingId })).status).toBe(200);
    expect((await scan(technician, { code: label, mode: 'checkin' })).status).toBe(200);

    const gated = await scan(technician, { code: label, mode: 'checkout' });
    expect(gated.status).toBe(409);
    expect(gated.body.error).toBe(inventoryMessages.kitNeedsCleaning(label));
    expect(gated.body.scan).toMatchObject({ outcome: 'rejected', username: technician.user.username });

    const cleaned = await technician.request<InventoryKit>('POST', `/api/kits/${kit?.id}/cleanings`, {
      body: { notes: 'Wiped and bagged' },
    });
    expect(cleaned.status).toBe(201);
    expect(cleaned.body.status).toBe('available');
    // Past the gate, the scan is judged on its booking: none starts today any more.
    const after = await scan(technician, { code: label, mode: 'checkout' });
    expect(after.status).toBe(409);
    expect(after.body.error).toBe(inventoryMessages.noBookingToday(label));

    const history = await technician.request<InventoryKitHistoryEntry[]>(
      'GET',
      `/api/kits/${kit?.id}/history`,
    );
    const scans = history.body.filter((entry) => entry.kind === 'scan');
    expect(scans.map((entry) => entry.username)).toEqual(Array(4).fill(technician.user.username));
    const cleaning = history.body.find((entry) => entry.kind === 'cleaning');
    expect(cleaning).toMatchObject({
      bookingId,
      notes: 'Wiped and bagged',
      username: technician.user.username,
    });
  });

  it('refuses to check in a kit against a booking that is not its own', async () => {
    const [kit, other] = await insertKits(server.db, 'Somfit', 2);
    const patient = await insertPatient(server.db);
    await insertBooking(server.db, {
      patientId: patient.id,
      kitId: kit?.id ?? null,
      kitType: 'Somfit',
      startDate: practiceTodayForTests(),
      status: 'picked_up',
    });
    const otherBooking = await insertBooking(server.db, {
      patientId: patient.id,
      kitId: other?.id ?? null,
      kitType: 'Somfit',
      startDate: practiceTodayForTests(),
      status: 'picked_up',
    });
    await server.db('kits').whereIn('id', [kit?.id, other?.id]).update({ status: 'in_use' });
    const wrong = await scan(technician, { code: kit?.kitId, mode: 'checkin', bookingId: otherBooking });
    expect(wrong.status).toBe(409);
    expect(wrong.body.error).toBe(inventoryMessages.wrongKit(kit?.kitId as string, other?.kitId as string));
    expect((await server.db('kits').where({ id: kit?.id }).first()).status).toBe('in_use');
  });

  it('accepts the return of a kit whose booking is picked up though no scan set it in use', async () => {
    const [kit] = await insertKits(server.db, 'Somfit', 1);
    const patient = await insertPatient(server.db);
    const bookingId = await insertBooking(server.db, {
      patientId: patient.id,
      kitId: kit?.id ?? null,
      kitType: 'Somfit',
      startDate: practiceTodayForTests(),
      status: 'picked_up',
    });
    const back = await scan(technician, { code: kit?.kitId, mode: 'checkin' });
    expect(back.status).toBe(200);
    expect(back.body.scan.message).toBe(inventoryMessages.checkedIn(kit?.kitId as string, bookingId));
    expect((await server.db('kits').where({ id: kit?.id }).first()).status).toBe('cleaning');
    expect((await server.db('bookings').where({ id: bookingId }).first()).status).toBe('completed');
  });

  it('marks a kit lost and refuses to check it out; finding it makes it available again', async () => {
    const [kit] = await insertKits(server.db, 'SleepView', 1);
    const lost = await scheduler.request<InventoryKit>('PATCH', `/api/kits/${kit?.id}`, {
      body: { status: 'lost', notes: 'Not returned by courier' },
    });
    expect(lost.status).toBe(200);
    expect(lost.body.status).toBe('lost');
    const refused = await scan(technician, { code: kit?.kitId, mode: 'checkout' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe(inventoryMessages.kitOutOfService(kit?.kitId as string, 'lost'));
    const found = await scheduler.request<InventoryKit>('PATCH', `/api/kits/${kit?.id}`, {
      body: { status: 'available' },
    });
    expect(found.body.status).toBe('available');
  });

  it('lets technicians look after kits but not add them or set schedules', async () => {
    const [kit] = await insertKits(server.db, 'Somfit', 1);
    expect(
      (await technician.request('POST', '/api/kits', { body: { kitId: 'TECH-1', type: 'Somfit' } })).status,
    ).toBe(403);
    expect(
      (
        await technician.request('POST', '/api/maintenance-schedules', {
          body: { kitType: 'Somfit', everyDays: 30 },
        })
      ).status,
    ).toBe(403);
    const maintained = await technician.request<InventoryKit>('POST', `/api/kits/${kit?.id}/maintenance`, {
      body: {},
    });
    expect(maintained.status).toBe(201);
    const notWaiting = await technician.request('POST', `/api/kits/${kit?.id}/cleanings`, { body: {} });
    expect(notWaiting.status).toBe(409);
    expect(notWaiting.body.error).toBe(inventoryMessages.notInCleaning(kit?.kitId as string));
    expect((await technician.request('POST', '/api/kits/999999/cleanings', { body: {} })).status).toBe(404);
  });
});
