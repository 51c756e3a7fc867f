import { type DashboardStatsResponse, type FleetCounts, KIT_TYPES } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../db/seed/demo.js';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';

// The dashboard and Inventory count kits with one definition (core's kitCounts): on the demo
// data, at the same moment, their numbers agree.
describe('kit numbers on the dashboard and in Inventory', () => {
  let server: TestServer;
  let scheduler: Agent;
  beforeAll(async () => {
    server = await getTestServer();
    await seedDemo(server.db, { timeZone: 'America/New_York' });
    scheduler = await server.loginAs('scheduler');
  });
  afterAll(() => server.close());

  it('agree on the demo data', async () => {
    const stats = await scheduler.request<DashboardStatsResponse>('GET', '/api/dashboard/stats');
    const overview = await scheduler.request<{ fleet: FleetCounts; total: number }>(
      'GET',
      '/api/inventory/overview',
    );
    expect(stats.status).toBe(200);
    expect(overview.status).toBe(200);
    const { fleet } = overview.body;
    expect(stats.body.availableKits).toBe(fleet.all.freeToday);
    expect(stats.body.kitsInUse).toBe(fleet.all.heldToday);
    expect(stats.body.kitsOnShelf).toBe(fleet.all.onShelf);
    expect(stats.body.totalKits).toBe(fleet.all.total);
    expect(overview.body.total).toBe(fleet.all.total);
    // The per-type cards add up to the dashboard's numbers.
    const sum = (key: 'freeToday' | 'heldToday' | 'onShelf') =>
      KIT_TYPES.reduce((n, type) => n + fleet.byType[type][key], 0);
    expect(sum('freeToday')).toBe(stats.body.availableKits);
    expect(sum('heldToday')).toBe(stats.body.kitsInUse);
    expect(sum('onShelf')).toBe(stats.body.kitsOnShelf);
    // Every kit in service is either free to book today or booked today.
    expect(fleet.all.freeToday + fleet.all.heldToday).toBe(fleet.all.inService);
    expect(stats.body.totalKits).toBe(15);
  });
});
