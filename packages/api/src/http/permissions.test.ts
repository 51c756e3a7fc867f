import {
  defineAbilityFor,
  publicFormsMessages,
  ROLES,
  ROUTE_ACCESS,
  type Role,
  routeAllows,
} from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkPhysician } from '../test/operations-fixtures.js';
import { apiRoutes } from '../test/routes.js';
import { rowCounter } from '../test/row-counts.js';
import { type Agent, getTestServer, type TestServer } from '../test/server.js';
import type { AccessRequirement } from './can.js';

// The role x endpoint matrix. Every route the app mounts is read off the router and must be in
// the intended table kept in core (ROUTE_ACCESS, beside the CASL rules), so a new route is a
// written decision. Each is called as anonymous and as each role: 401 for anonymous on a
// protected route, 403 where the table refuses the role, anything else where it allows; the
// table and the CASL rules must agree. A route with no access middleware must be meant public.

/** Routes anyone may call. Everything else must declare `authenticated` or `can(...)`. */
const PUBLIC_ROUTES = new Set([
  'GET /api/health',
  'GET /api/ready',
  'POST /api/auth/login',
  'POST /api/auth/logout',
  'POST /api/auth/set-password',
  'POST /api/registrations',
  'POST /api/webhooks/ghl',
]);
const isPublicByConvention = (path: string) => path.startsWith('/api/public/');

interface RouteUnderTest {
  key: string;
  method: string;
  path: string;
  url: string;
  requirements: AccessRequirement[];
  embedGuarded: boolean;
}

function routesUnderTest(): RouteUnderTest[] {
  // An id no record has: allowed calls answer 404 or 400 and change nothing.
  return apiRoutes().map((route) => ({ ...route, url: route.path.replace(/:[A-Za-z]+/g, '999999') }));
}

/** What the CASL rules say, read off the route's access middleware. */
function abilityAllows(agent: Agent, route: RouteUnderTest): boolean {
  const ability = defineAbilityFor(agent.user);
  return route.requirements.every(
    (requirement) => requirement.kind === 'signed-in' || ability.can(requirement.action, requirement.subject),
  );
}

/** What the intended table says. */
const tableAllows = (role: Role | null, route: RouteUnderTest) =>
  routeAllows(ROUTE_ACCESS[route.key] ?? [], role);

const FOREIGN = 'https://foreign.example';

describe('permission matrix', () => {
  let server: TestServer;
  const agents = new Map<Role, Agent>();
  const routes = routesUnderTest();

  beforeAll(async () => {
    server = await getTestServer();
    for (const role of ROLES) {
      if (role !== 'physician') {
        agents.set(role, await server.loginAs(role));
        continue;
      }
      // A physician account reaches its records once linked to its Physician record.
      const user = await server.createUser({ role });
      await linkPhysician(server.db, user.id, 990_001);
      agents.set(role, await server.loginAs(user.username));
    }
  });
  afterAll(() => server.close());

  const call = (route: RouteUnderTest, via: { request: Agent['request'] }) =>
    via.request(
      route.method,
      route.url,
      route.method === 'GET' || route.method === 'DELETE' ? {} : { body: {} },
    );

  it('finds the routes of every feature', () => {
    const keys = routes.map((route) => route.key);
    for (const expected of [
      'GET /api/auth/me',
      'GET /api/admin/audit-logs',
      'PATCH /api/admin/settings',
      'POST /api/admin/registrations/:id/approve',
      'GET /api/privacy-acknowledgment/check',
      'GET /api/public/availability',
      'POST /api/public/booking-requests',
      'POST /api/public/referrals',
      'POST /api/public/physician-signups',
      'POST /api/public/dropoffs',
      'GET /api/public/agreements/:token',
      'POST /api/public/agreements/:token/sign',
      'GET /api/public/diagnostics',
      'POST /api/admin/embed-keys',
      'GET /api/agreements/:id/pdf',
    ])
      expect(keys).toContain(expected);
    expect(routes.length).toBeGreaterThan(25);
  });

  it('has every route in the intended table, and no entry for a route that is gone', () => {
    const mounted = new Set(routes.map((route) => route.key));
    // What the CASL rules allow, as a line to add to the table once it is what is meant.
    const suggest = (route: RouteUnderTest) => {
      if (route.requirements.length === 0) return `'${route.key}': PUBLIC,`;
      const roles = ROLES.filter((role) => abilityAllows(agents.get(role) as Agent, route));
      return `'${route.key}': ${roles.length === ROLES.length ? 'SIGNED_IN' : JSON.stringify(roles)},`;
    };
    expect(routes.filter((route) => !(route.key in ROUTE_ACCESS)).map(suggest)).toEqual([]);
    expect(Object.keys(ROUTE_ACCESS).filter((key) => !mounted.has(key))).toEqual([]);
  });

  it('has the table agree with the CASL rules for every role and route', () => {
    const disagreements: string[] = [];
    for (const route of routes)
      for (const role of ROLES) {
        const agent = agents.get(role) as Agent;
        if (tableAllows(role, route) !== abilityAllows(agent, route))
          disagreements.push(`${route.key} for ${role}`);
      }
    for (const route of routes) {
      const isPublic = route.requirements.length === 0;
      if (isPublic !== (ROUTE_ACCESS[route.key] === 'public')) disagreements.push(`${route.key} public`);
    }
    expect(disagreements).toEqual([]);
  });

  it('leaves no route public by accident', () => {
    const unguarded = routes
      .filter((route) => route.requirements.length === 0 && !isPublicByConvention(route.path))
      .map((route) => route.key);
    for (const key of unguarded) expect(PUBLIC_ROUTES.has(key), `${key} declares no access rule`).toBe(true);
  });

  it('answers 401 to anonymous callers on every protected route, and lets them reach public ones', async () => {
    for (const route of routes) {
      const res = await call(route, server);
      if (route.requirements.length > 0) {
        expect(res.status, route.key).toBe(401);
        expect(res.body, route.key).toEqual({ error: expect.any(String), requestId: expect.any(String) });
      } else {
        expect([401, 403], route.key).not.toContain(res.status);
      }
    }
  });

  for (const role of ROLES) {
    it(`answers ${role} with 403 exactly where the intended table refuses`, async () => {
      const agent = agents.get(role) as Agent;
      const mismatches: string[] = [];
      for (const route of routes) {
        // Logging out would end the session the rest of the matrix uses: a throwaway one does it.
        const via = route.key === 'POST /api/auth/logout' ? await server.loginAs(role) : agent;
        const res = await call(route, via);
        const expected = tableAllows(role, route) ? 'allowed' : 'forbidden';
        const actual = res.status === 403 ? 'forbidden' : res.status === 401 ? 'signed out' : 'allowed';
        if (actual !== expected) mismatches.push(`${route.key}: expected ${expected}, got ${res.status}`);
        expect(res.status, route.key).toBeLessThan(500);
      }
      expect(mismatches).toEqual([]);
      // Still signed in after the whole matrix.
      expect((await agent.request('GET', '/api/auth/me')).status).toBe(200);
    });
  }

  it('refuses other sites: embed routes without a key for their origin, and every signed-in write', async () => {
    const admin = agents.get('admin') as Agent;
    const countRows = await rowCounter(server.db);
    const before = await countRows();
    const wrong: string[] = [];
    for (const route of routes) {
      if (route.method === 'OPTIONS') continue;
      const unsafe = !['GET', 'HEAD'].includes(route.method);
      if (route.embedGuarded) {
        const res = await server.request(route.method, route.url, {
          headers: { origin: FOREIGN },
          ...(unsafe ? { body: {} } : {}),
        });
        if (
          res.status !== 403 ||
          (res.body as { error?: string }).error !== publicFormsMessages.embedKeyRefused
        )
          wrong.push(`${route.key}: ${res.status}`);
        // The refusal is readable by that page (CORS for its origin only), so the widget can say why.
        if (res.headers.get('access-control-allow-origin') !== FOREIGN) wrong.push(`${route.key}: no CORS`);
      } else if (unsafe && !route.path.startsWith('/api/public/') && route.key !== 'POST /api/webhooks/ghl') {
        // A page elsewhere riding on an administrator's cookie (CSRF) changes nothing.
        const res = await admin.request(route.method, route.url, {
          headers: { origin: FOREIGN, 'sec-fetch-site': 'cross-site' },
          body: {},
        });
        if (res.status !== 403) wrong.push(`${route.key}: ${res.status}`);
      }
    }
    expect(wrong).toEqual([]);
    // Nothing was written.
    expect(await countRows()).toEqual(before);
    expect((await admin.request('GET', '/api/auth/me')).status).toBe(200);
  });

  it('gives the roles different answers on the administration routes', async () => {
    const admin = agents.get('admin') as Agent;
    const staff = agents.get('staff') as Agent;
    expect((await admin.request('GET', '/api/admin/users')).status).toBe(200);
    expect((await staff.request('GET', '/api/admin/users')).status).toBe(403);
  });
});
