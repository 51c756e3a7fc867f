import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestServer, type TestServer } from '../../test/server.js';
import { SESSION_TOUCH_SECONDS, touchSeconds } from './sessions.js';

interface SessionView {
  id: string;
  current: boolean;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
}

describe('sessions', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer();
  });
  afterAll(() => server.close());

  it('tells /api/auth/me when the session ends if left idle', async () => {
    const agent = await server.loginAs('technician');
    const me = await agent.request<{ sessionExpiresAt: string; role: string; practiceTimeZone: string }>(
      'GET',
      '/api/auth/me',
    );
    expect(me.status).toBe(200);
    expect(me.body.role).toBe('technician');
    // Every role learns the practice's zone: the console shows times and "today" in it.
    expect(me.body.practiceTimeZone).toBe('America/New_York');
    const remaining = new Date(me.body.sessionExpiresAt).getTime() - Date.now();
    expect(remaining).toBeGreaterThan(14 * 60_000);
    expect(remaining).toBeLessThanOrEqual(15 * 60_000 + 1000);
  });

  it('lists my own sessions and ends one of them at once', async () => {
    const user = await server.createUser({ role: 'staff' });
    const laptop = await server.loginAs(user.username);
    const phone = await server.loginAs(user.username);
    const someoneElse = await server.loginAs('staff');

    const listed = await laptop.request<SessionView[]>('GET', '/api/auth/sessions');
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(2);
    expect(listed.body.filter((s) => s.current)).toHaveLength(1);
    const phoneSession = listed.body.find((s) => !s.current) as SessionView;

    expect((await someoneElse.request('DELETE', `/api/auth/sessions/${phoneSession.id}`)).status).toBe(404);
    expect((await phone.request('GET', '/api/auth/me')).status).toBe(200);

    expect((await laptop.request('DELETE', `/api/auth/sessions/${phoneSession.id}`)).status).toBe(200);
    expect((await phone.request('GET', '/api/auth/me')).status).toBe(401);
    expect((await laptop.request('GET', '/api/auth/me')).status).toBe(200);
    expect((await laptop.request('DELETE', '/api/auth/sessions/not-a-uuid')).status).toBe(404);
  });

  it('ends every session of a user at once when an administrator revokes them', async () => {
    const admin = await server.loginAs('admin');
    const user = await server.createUser({ role: 'scheduler' });
    const one = await server.loginAs(user.username);
    const two = await server.loginAs(user.username);
    const res = await admin.request<{ revoked: number }>(
      'POST',
      `/api/admin/users/${user.id}/revoke-sessions`,
    );
    expect(res.status).toBe(200);
    expect(res.body.revoked).toBe(2);
    expect((await one.request('GET', '/api/auth/me')).status).toBe(401);
    expect((await two.request('GET', '/api/auth/me')).status).toBe(401);
    const event = await server.db('audit_events').where({ action: 'user.sessions_revoke' }).first();
    expect(event).toMatchObject({ actor_user_id: admin.user.id, entity_id: String(user.id) });
  });

  it('ends a session a deactivated user still holds', async () => {
    const admin = await server.loginAs('admin');
    const agent = await server.loginAs('staff');
    const res = await admin.request('PATCH', `/api/admin/users/${agent.user.id}`, {
      body: { isActive: false },
    });
    expect(res.status).toBe(200);
    expect((await agent.request('GET', '/api/auth/me')).status).toBe(401);
  });
});

describe('idle timeout as a setting', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer();
  });
  afterAll(() => server.close());

  it('follows the sessionIdleMinutes an administrator sets', async () => {
    const admin = await server.loginAs('admin');
    expect(
      (await admin.request('PATCH', '/api/admin/settings', { body: { sessionIdleMinutes: 5 } })).status,
    ).toBe(200);
    const agent = await server.loginAs('scheduler');
    const me = await agent.request<{ sessionExpiresAt: string }>('GET', '/api/auth/me');
    expect(new Date(me.body.sessionExpiresAt).getTime() - Date.now()).toBeLessThanOrEqual(5 * 60_000 + 1000);

    await server
      .db('sessions')
      .where({ user_id: agent.user.id })
      .update({ last_seen_at: server.db.raw("now() - interval '6 minutes'") });
    expect((await agent.request('GET', '/api/auth/me')).status).toBe(401);
    // Within the default 15 minutes it would still have been alive.
    const events = await server.db('audit_events').where({ action: 'auth.session_idle_timeout' });
    expect(events).toHaveLength(1);
    expect(events[0].details).toEqual({ idleMinutes: 5 });
  });
});

describe('session activity writes', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer();
  });
  afterAll(() => server.close());

  const lastSeen = async (userId: number): Promise<string> =>
    (
      await server
        .db('sessions')
        .where({ user_id: userId })
        .first(server.db.raw('last_seen_at::text AS seen'))
    ).seen;

  it('writes last_seen_at at most once a minute however fast the requests come', async () => {
    const agent = await server.loginAs('staff');
    await server
      .db('sessions')
      .where({ user_id: agent.user.id })
      .update({ last_seen_at: server.db.raw("now() - interval '20 seconds'") });
    const before = await lastSeen(agent.user.id);
    const statements: string[] = [];
    const onQuery = (q: { sql: string }) => statements.push(q.sql);
    server.db.on('query', onQuery);
    try {
      for (let i = 0; i < 5; i++) expect((await agent.request('GET', '/api/auth/me')).status).toBe(200);
    } finally {
      server.db.off('query', onQuery);
    }
    expect(statements.filter((sql) => /^update "sessions"/i.test(sql))).toEqual([]);
    expect(await lastSeen(agent.user.id)).toBe(before);
  });

  it('writes it again once the stored time is a minute old', async () => {
    const agent = await server.loginAs('technician');
    await server
      .db('sessions')
      .where({ user_id: agent.user.id })
      .update({
        last_seen_at: server.db.raw('now() - make_interval(secs => ?)', [SESSION_TOUCH_SECONDS + 1]),
      });
    const before = await lastSeen(agent.user.id);
    expect((await agent.request('GET', '/api/auth/me')).status).toBe(200);
    expect(await lastSeen(agent.user.id)).not.toBe(before);
    const { recent } = await server
      .db('sessions')
      .where({ user_id: agent.user.id })
      .first(server.db.raw("last_seen_at > now() - interval '10 seconds' AS recent"));
    expect(recent).toBe(true);
  });

  it('still ends a session the moment its stored activity is the idle timeout old', async () => {
    const agent = await server.loginAs('scheduler');
    // Five seconds inside the default 15-minute timeout: still alive.
    await server
      .db('sessions')
      .where({ user_id: agent.user.id })
      .update({ last_seen_at: server.db.raw("now() - interval '14 minutes 55 seconds'") });
    expect((await agent.request('GET', '/api/auth/me')).status).toBe(200);
    // Exactly at the timeout: ended, not kept alive by the throttle.
    await server
      .db('sessions')
      .where({ user_id: agent.user.id })
      .update({ last_seen_at: server.db.raw("now() - interval '15 minutes'") });
    expect((await agent.request('GET', '/api/auth/me')).status).toBe(401);
  });

  it('reports the end of the idle window from the stored activity, never later than it comes', async () => {
    const agent = await server.loginAs('staff');
    await server
      .db('sessions')
      .where({ user_id: agent.user.id })
      .update({ last_seen_at: server.db.raw("now() - interval '20 seconds'") });
    const me = await agent.request<{ sessionExpiresAt: string }>('GET', '/api/auth/me');
    const remaining = new Date(me.body.sessionExpiresAt).getTime() - Date.now();
    // 15 minutes from 20 seconds ago.
    expect(remaining).toBeLessThanOrEqual(15 * 60_000 - 19_000);
    expect(remaining).toBeGreaterThan(15 * 60_000 - 25_000);
  });

  it('touches a short timeout more often so it stays exact', () => {
    expect(touchSeconds(15)).toBe(SESSION_TOUCH_SECONDS);
    expect(touchSeconds(2)).toBe(30);
    expect(touchSeconds(1)).toBe(15);
  });
});
