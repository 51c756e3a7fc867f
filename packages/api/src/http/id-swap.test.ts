import { ROUTE_ACCESS, routeAllows } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertBooking,
  insertKits,
  insertPatient,
  linkPhysician,
  wednesdayAhead,
} from '../test/operations-fixtures.js';
import { apiRoutes } from '../test/routes.js';
import { type Agent, getTestServer, type TestServer } from '../test/server.js';

// Id-swapping, for every route a physician may call with a record id: physician A asking for
// physician B's patient, booking or referral gets 404 — the same answer as for an id no record has,
// so the attempt reveals nothing — and is audited, while A's own record answers. The routes are
// read off the router, so a route added later is covered.

interface Records {
  patient: number;
  booking: number;
  referral: number;
}

/** Which record an `:id` names, by the route's path. */
function recordOf(path: string): keyof Records | undefined {
  if (/^\/api\/patients\/:id(\/|$)/.test(path)) return 'patient';
  if (/^\/api\/bookings\/:id(\/|$)/.test(path)) return 'booking';
  if (/^\/api\/referrals\/:id(\/|$)/.test(path)) return 'referral';
  return undefined;
}

describe('id-swapping between physicians', () => {
  let server: TestServer;
  const physicians: { agent: Agent; userId: number; records: Records }[] = [];

  beforeAll(async () => {
    server = await getTestServer();
    const [kit] = await insertKits(server.db, 'Somfit', 1);
    for (const [i, physicianId] of [991_001, 991_002].entries()) {
      const user = await server.createUser({ role: 'physician' });
      await linkPhysician(server.db, user.id, physicianId);
      const agent = await server.loginAs(user.username);
      const patient = await insertPatient(server.db, { physicianId });
      const booking = await insertBooking(server.db, {
        patientId: patient.id,
        kitId: kit?.id ?? null,
        kitType: 'Somfit',
        startDate: wednesdayAhead(2 + i * 2),
      });
      const referral = await agent.request<{ id: number }>('POST', '/api/referrals', {
        body: { patientId: patient.id, reason: 'Loud snoring, daytime sleepiness', urgency: 'routine' },
      });
      expect(referral.status, JSON.stringify(referral.body)).toBe(201);
      physicians.push({
        agent,
        userId: user.id,
        records: { patient: patient.id, booking, referral: referral.body.id },
      });
    }
  });
  afterAll(() => server.close());

  it("answers 404 for the other physician's records on every route a physician may call with an id", async () => {
    const [a, b] = physicians as [(typeof physicians)[0], (typeof physicians)[0]];
    const routes = apiRoutes().filter(
      (route) =>
        route.params.length === 1 &&
        route.params[0] === 'id' &&
        recordOf(route.path) !== undefined &&
        routeAllows(ROUTE_ACCESS[route.key] ?? [], 'physician'),
    );
    const proven: string[] = [];
    const wrong: string[] = [];
    for (const route of routes) {
      const kind = recordOf(route.path) as keyof Records;
      const url = (id: number) => route.path.replace(':id', String(id));
      const options = route.method === 'GET' ? {} : { body: {} };
      const theirs = await a.agent.request(route.method, url(b.records[kind]), options);
      if (theirs.status !== 404) wrong.push(`${route.key}: ${theirs.status}`);
      const nobody = await a.agent.request(route.method, url(999_999_999), options);
      // The same answer as for an id no record has.
      if (
        theirs.status === 404 &&
        JSON.stringify(nobody.body).replace(/"requestId":"[^"]+"/, '') !==
          JSON.stringify(theirs.body).replace(/"requestId":"[^"]+"/, '')
      )
        wrong.push(`${route.key}: answers differ`);
      if (route.method === 'GET') {
        const own = await a.agent.request(route.method, url(a.records[kind]), options);
        if (own.status < 300) proven.push(route.key);
      }
    }
    expect(wrong).toEqual([]);
    // Every kind of record is covered by at least one route the owner reads.
    for (const kind of ['patient', 'booking', 'referral'] as const)
      expect(
        proven.some((key) => recordOf(key.split(' ')[1] as string) === kind),
        kind,
      ).toBe(true);
    expect(proven.length).toBeGreaterThanOrEqual(5);
    // Each refused look at another physician's record is in the audit trail.
    const denied = await server
      .db('audit_events')
      .where({ actor_user_id: a.userId })
      .whereIn('outcome', ['denied', 'failure']);
    expect(denied.length).toBeGreaterThanOrEqual(routes.length);
  });
});
