import { authMessages, type SearchResult } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPatient } from '../../test/operations-fixtures.js';
import { countQueries } from '../../test/query-counter.js';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';

// A search on a session this process resumed moments ago confirms that session in the statement
// that reads its answer (http/session.ts, auth/sessions.ts sessionHolds). Whatever another API
// process (here: a write straight to the database) does to the session or its account between
// two searches takes effect on the second, exactly as it would had the session been resumed on
// its own first.

describe('search on a session resumed from memory', () => {
  let server: TestServer;
  let ids: { ours: number; theirs: number };

  beforeAll(async () => {
    server = await getTestServer({ config: { sessionIdleMinutes: 2 } });
    const ours = await insertPatient(server.db, { name: 'Odalys Brennick', physicianId: 71 });
    const theirs = await insertPatient(server.db, { name: 'Perrin Brennick', physicianId: 72 });
    ids = { ours: ours.id, theirs: theirs.id };
  });
  afterAll(() => server.close());

  const search = (agent: Agent | { cookie: string }, query = 'Brennick') =>
    server.request<SearchResult[]>('POST', '/api/search', { cookie: agent.cookie, body: { query } });
  const patientIds = (results: SearchResult[]) =>
    results.filter((r) => r.type === 'patient').map((r) => r.id);
  const searchesAudited = async (agent: Agent) =>
    (await server.db('audit_events').where({ action: 'search.query', actor_user_id: agent.user.id })).length;
  const sessionOf = (agent: Agent) => server.db('sessions').where({ user_id: agent.user.id });

  /** A new staff member signed in, whose search runs as one statement (the session in it). */
  async function signedIn(): Promise<Agent> {
    const user = await server.createUser({ role: 'staff' });
    const agent = await server.loginAs(user.username);
    expect((await search(agent)).status).toBe(200);
    const pools = [server.db, server.genericPlans];
    expect(await countQueries(pools, async () => expect((await search(agent)).status).toBe(200))).toBe(1);
    return agent;
  }

  it('answers in one statement that also writes its audit event', async () => {
    const agent = await signedIn();
    const before = await searchesAudited(agent);
    const response = await search(agent);
    expect(patientIds(response.body).sort()).toEqual([ids.ours, ids.theirs].sort());
    expect(await searchesAudited(agent)).toBe(before + 1);
  });

  it('refuses a session revoked meanwhile, and writes no search event', async () => {
    const agent = await signedIn();
    const before = await searchesAudited(agent);
    await sessionOf(agent).update({ revoked_at: server.db.fn.now() });
    const response = await search(agent);
    expect(response.status).toBe(401);
    expect(response.headers.get('set-cookie')).toContain('wellrest_session=;');
    expect(await searchesAudited(agent)).toBe(before);
  });

  it('refuses a session whose account was deactivated meanwhile', async () => {
    const agent = await signedIn();
    const before = await searchesAudited(agent);
    await server.db('users').where({ id: agent.user.id }).update({ is_active: false });
    expect((await search(agent)).status).toBe(401);
    expect(await searchesAudited(agent)).toBe(before);
  });

  it('refuses a session past its absolute expiry', async () => {
    const agent = await signedIn();
    await sessionOf(agent).update({
      created_at: server.db.raw("now() - interval '13 hours'"),
      expires_at: server.db.raw("now() - interval '1 second'"),
    });
    expect((await search(agent)).status).toBe(401);
  });

  it('ends a session left idle, with its audit event and no search event', async () => {
    const agent = await signedIn();
    const before = await searchesAudited(agent);
    await sessionOf(agent).update({ last_seen_at: server.db.raw("now() - interval '3 minutes'") });
    expect((await search(agent)).status).toBe(401);
    expect(await searchesAudited(agent)).toBe(before);
    const ended = await server
      .db('audit_events')
      .where({ action: 'auth.session_idle_timeout', actor_user_id: agent.user.id });
    expect(ended).toHaveLength(1);
    expect((await sessionOf(agent).first()).revoked_at).not.toBeNull();
  });

  it('slides the idle window of a session due its touch, and answers', async () => {
    const agent = await signedIn();
    await sessionOf(agent).update({ last_seen_at: server.db.raw("now() - interval '40 seconds'") });
    const response = await search(agent);
    expect(response.status).toBe(200);
    expect(patientIds(response.body)).toContain(ids.ours);
    const { recent } = await sessionOf(agent).first(
      server.db.raw("last_seen_at > now() - interval '10 seconds' AS recent"),
    );
    expect(recent).toBe(true);
  });

  it('applies a role changed meanwhile at once: a physician sees only their own patients', async () => {
    const agent = await signedIn();
    await server.db('users').where({ id: agent.user.id }).update({ role: 'physician', physician_id: 71 });
    const response = await search(agent);
    expect(response.status).toBe(200);
    expect(patientIds(response.body)).toEqual([ids.ours]);
  });

  it('holds back an account whose password was reset by an administrator meanwhile', async () => {
    const agent = await signedIn();
    await server.db('users').where({ id: agent.user.id }).update({ must_change_password: true });
    const response = await search(agent);
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({
      error: authMessages.passwordChangeRequired,
      mustChangePassword: true,
    });
  });

  it('finds a patient another process added with a new word at once', async () => {
    const agent = await signedIn();
    expect(patientIds((await search(agent, 'Brennick Quillory')).body)).toEqual([]);
    expect(patientIds((await search(agent, 'Brennick Quillory')).body)).toEqual([]);
    const added = await insertPatient(server.db, { name: 'Sable Quillory Brennick' });
    expect(patientIds((await search(agent, 'Brennick Quillory')).body)).toEqual([added.id]);
  });
});
