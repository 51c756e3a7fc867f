import { defineAbilityFor, ROLES, type Role } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes } from '../test/routes.js';
import { type Agent, getTestServer, type TestServer } from '../test/server.js';
import type { AccessRequirement } from './can.js';

// The role x endpoint matrix. Every route the app mounts is read off the router (so a route added
// later is covered without being listed here) and called as anonymous and as each role: 401 for
// anonymous on a protected route, 403 where the role's ability refuses, anything else where it
// allows. A route with no access middleware must be one of the few meant to be public.

/** Routes anyone may call. Everything else must declare `authenticated` or `can(...)`. */
const PUBLIC_ROUTES = new Set([
  'GET /api/health',
  'GET /api/ready',
  'POST /api/auth/login',
  'POST /api/auth/logout',
  'POST /api/auth/set-password',
  'POST /api/registrations',
  'POST /api/webhooks/ghl',
  // The API description and its reference page: the shape of the API, no data.
  'GET /api/openapi.json',
  'GET /api/docs',
  'GET /api/docs/:file',
]);
const isPublicByConvention = (path: string) => path.startsWith('/api/public/');

interface RouteUnderTest {
  key: string;
  method: string;
  path: string;
  url: string;
  requirements: AccessRequirement[];
}

function routesUnderTest(): RouteUnderTest[] {
  // An id no record has: allowed calls answer 404 or 400 and change nothing.
  return apiRoutes().map((route) => ({ ...route, url: route.path.replace(/:[A-Za-z]+/g, '999999') }));
}

function allows(agent: Agent, route: RouteUnderTest): boolean {
  const ability = defineAbilityFor(agent.user);
  return route.requirements.every(
    (requirement) => requirement.kind === 'signed-in' || ability.can(requirement.action, requirement.subject),
  );
}

describe('permission matrix', () => {
  let server: TestServer;
  const agents = new Map<Role, Agent>();
  const routes = routesUnderTest();

  beforeAll(async () => {
    server = await getTestServer();
    for (const role of ROLES) agents.set(role, await server.loginAs(role));
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
    it(`answers ${role} with 403 exactly where the ability refuses`, async () => {
      const agent = agents.get(role) as Agent;
      const mismatches: string[] = [];
      for (const route of routes) {
        // Logging out would end the session the rest of the matrix uses: a throwaway one does it.
        const via = route.key === 'POST /api/auth/logout' ? await server.loginAs(role) : agent;
        const res = await call(route, via);
        const expected = allows(agent, route) ? 'allowed' : 'forbidden';
        const actual = res.status === 403 ? 'forbidden' : res.status === 401 ? 'signed out' : 'allowed';
        if (actual !== expected) mismatches.push(`${route.key}: expected ${expected}, got ${res.status}`);
        expect(res.status, route.key).toBeLessThan(500);
      }
      expect(mismatches).toEqual([]);
      // Still signed in after the whole matrix.
      expect((await agent.request('GET', '/api/auth/me')).status).toBe(200);
    });
  }

  it('gives the roles different answers on the administration routes', async () => {
    const admin = agents.get('admin') as Agent;
    const staff = agents.get('staff') as Agent;
    expect((await admin.request('GET', '/api/admin/users')).status).toBe(200);
    expect((await staff.request('GET', '/api/admin/users')).status).toBe(403);
  });
});
