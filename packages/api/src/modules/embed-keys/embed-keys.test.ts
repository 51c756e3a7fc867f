import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  type EmbedKey,
  type EmbedKeySummary,
  PUBLIC_FORM_MIN_FILL_MS,
  publicFormsMessages,
  type WidgetScript,
} from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';

// An embed key's life: what revoking it would stop (origins, last use, recent submissions), an
// administrator's restore (audited), and replacing a key by a new one with the same origins.

const PARTNER = 'https://partner.example';
const SECOND = 'https://second.example';

function signup() {
  return {
    name: 'Dr Casey Example',
    npi: '1234567893',
    practice: 'Example Sleep Clinic',
    email: 'casey@example.test',
    phone: '555-0199',
    specialty: 'Sleep medicine',
    startedAt: Date.now() - PUBLIC_FORM_MIN_FILL_MS - 1000,
    idempotencyKey: randomUUID(),
    website: '',
  };
}

describe('embed key lifecycle', () => {
  let server: TestServer;
  let admin: Agent;

  beforeAll(async () => {
    server = await getTestServer();
    admin = await server.loginAs('admin');
  });
  afterAll(() => server.close());

  async function createKey(name: string, allowedOrigins = [PARTNER, SECOND]) {
    const res = await admin.request<EmbedKey>('POST', '/api/admin/embed-keys', {
      body: { name, allowedOrigins },
    });
    expect(res.status).toBe(201);
    return res.body;
  }

  async function listed(id: number): Promise<EmbedKeySummary | undefined> {
    const res = await admin.request<EmbedKeySummary[]>('GET', '/api/admin/embed-keys');
    expect(res.status).toBe(200);
    return res.body.find((key) => key.id === id);
  }

  const keyWorks = async (key: string) =>
    (
      await server.request('GET', '/api/public/diagnostics', {
        headers: { origin: PARTNER, 'x-wellrest-embed-key': key },
      })
    ).status;

  it('lists each key with its origins, last use and submissions of the last 30 days', async () => {
    const key = await createKey(`Usage ${randomUUID()}`);
    const unused = await createKey(`Unused ${randomUUID()}`);
    expect(await listed(key.id)).toMatchObject({ lastUsedAt: null, submissionsLast30Days: 0 });
    for (let i = 0; i < 2; i += 1) {
      const res = await server.request('POST', '/api/public/physician-signups', {
        headers: { origin: PARTNER, 'x-wellrest-embed-key': key.key },
        body: { ...signup(), npi: i === 0 ? '1245319599' : '1234567893' },
      });
      expect(res.status).toBe(201);
    }
    // A submission older than 30 days is not counted.
    await server.db('public_submissions').insert({
      kind: 'physician_signup',
      idempotency_key: randomUUID(),
      request_id: randomUUID(),
      embed_key_id: key.id,
      created_at: new Date(Date.now() - 31 * 24 * 60 * 60_000),
    });
    const summary = await listed(key.id);
    expect(summary?.allowedOrigins).toEqual([PARTNER, SECOND]);
    expect(summary?.submissionsLast30Days).toBe(2);
    expect(Date.parse(summary?.lastUsedAt ?? '')).toBeGreaterThan(Date.now() - 60_000);
    expect(await listed(unused.id)).toMatchObject({ lastUsedAt: null, submissionsLast30Days: 0 });
  });

  it('restores a revoked key for administrators only, and audits it', async () => {
    const key = await createKey(`Restore ${randomUUID()}`);
    expect((await admin.request('DELETE', `/api/admin/embed-keys/${key.id}`)).status).toBe(200);
    expect(await keyWorks(key.key)).toBe(403);

    const scheduler = await server.loginAs('scheduler');
    const refused = await scheduler.request('POST', `/api/admin/embed-keys/${key.id}/restore`);
    expect(refused.status).toBe(403);
    expect((await listed(key.id))?.revokedAt).not.toBeNull();

    const restored = await admin.request<EmbedKey>('POST', `/api/admin/embed-keys/${key.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ id: key.id, key: key.key, revokedAt: null });
    expect(restored.body.allowedOrigins).toEqual([PARTNER, SECOND]);
    expect(await keyWorks(key.key)).toBe(200);

    const events = await server
      .db('audit_events')
      .where({ entity_type: 'embed_key', entity_id: String(key.id) })
      .orderBy('id')
      .select('action', 'outcome', 'actor_username');
    expect(events.map((event) => event.action)).toEqual([
      'embed_key.create',
      'embed_key.revoke',
      'embed_key.restore',
    ]);
    expect(events[2]).toMatchObject({ outcome: 'success', actor_username: admin.user.username });

    expect((await admin.request('POST', '/api/admin/embed-keys/999999/restore')).status).toBe(404);
  });

  it('replaces a key by a new one with the same name and origins in one action', async () => {
    const old = await createKey(`Replace ${randomUUID()}`);
    const res = await admin.request<EmbedKey>('POST', `/api/admin/embed-keys/${old.id}/replace`);
    expect(res.status).toBe(201);
    const fresh = res.body;
    expect(fresh.id).not.toBe(old.id);
    expect(fresh.key).not.toBe(old.key);
    expect(fresh).toMatchObject({ name: old.name, allowedOrigins: [PARTNER, SECOND], revokedAt: null });
    expect(await keyWorks(old.key)).toBe(403);
    expect(await keyWorks(fresh.key)).toBe(200);
    expect((await listed(old.id))?.revokedAt).not.toBeNull();

    const [event] = await server
      .db('audit_events')
      .where({ action: 'embed_key.replace', entity_id: String(old.id) })
      .select('details');
    expect(event?.details).toEqual({ replacedBy: fresh.id });

    // A revoked key is restored, not replaced: nothing new is issued.
    const before = await server.db('embed_keys').count<{ count: string }[]>('* as count');
    const again = await admin.request('POST', `/api/admin/embed-keys/${old.id}/replace`);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(publicFormsMessages.embedKeyAlreadyRevoked);
    expect(await server.db('embed_keys').count<{ count: string }[]>('* as count')).toEqual(before);

    const scheduler = await server.loginAs('scheduler');
    expect((await scheduler.request('POST', `/api/admin/embed-keys/${fresh.id}/replace`)).status).toBe(403);
  });
});

describe('widget scripts for the embed pages', () => {
  let server: TestServer;
  let widgetsDir: string;
  const script = 'customElements.define("wellrest-booking", class extends HTMLElement {});\n';

  beforeAll(async () => {
    widgetsDir = await mkdtemp(path.join(os.tmpdir(), 'wellrest-widgets-'));
    await writeFile(path.join(widgetsDir, 'wellrest-booking.js'), script);
    await writeFile(path.join(widgetsDir, 'wellrest-booking.mjs'), 'export {};\n');
    server = await getTestServer({ config: { widgetsDir } });
  });
  afterAll(async () => {
    await server.close();
    await rm(widgetsDir, { recursive: true, force: true });
  });

  it('gives each classic script its versioned URL and SRI hash, which the server answers', async () => {
    const staff = await server.loginAs('staff');
    const res = await staff.request<WidgetScript[]>('GET', '/api/admin/widget-scripts');
    expect(res.status).toBe(200);
    const hash = createHash('sha256').update(script).digest('hex').slice(0, 10);
    expect(res.body).toEqual([
      {
        file: 'wellrest-booking.js',
        versionedPath: `/widgets/wellrest-booking.${hash}.js`,
        integrity: `sha384-${createHash('sha384').update(script).digest('base64')}`,
      },
    ]);
    const served = await server.request('GET', res.body[0]?.versionedPath ?? '');
    expect(served.status).toBe(200);
    expect(served.text).toBe(script);
    expect((await server.request('GET', '/api/admin/widget-scripts')).status).toBe(401);
  });
});
