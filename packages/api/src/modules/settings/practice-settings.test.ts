import { adminMessages, authMessages, type EmbedDefaults, messages } from '@wellrest/core';
import { URI } from 'otpauth';
import { PDFDocument, PDFName } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PdfWriter } from '../../pdf/writer.js';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';

// The settings a practice sets once: its letterhead logo, which roles must use two-factor
// authentication, and where a partner's embed snippet starts.

/** A 1 × 1 PNG. */
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

type Fields = { error?: string; fields?: Record<string, string> };

describe('practice settings', () => {
  let server: TestServer;
  let admin: Agent;
  const patch = (body: Record<string, unknown>) =>
    admin.request<Record<string, unknown> & Fields>('PATCH', '/api/admin/settings', { body });

  beforeAll(async () => {
    server = await getTestServer();
    admin = await server.loginAs('admin');
  });
  afterAll(() => server.close());

  it('keeps a letterhead logo that is really a PNG or JPEG, and draws it on reports', async () => {
    const saved = await patch({ letterheadLogo: PNG });
    expect(saved.status).toBe(200);
    expect(saved.body.letterheadLogo).toBe(PNG);

    const before = await admin.request('GET', '/api/admin/settings');
    // Text dressed as an image, an image type reports cannot draw, a truncated PNG, a huge one.
    const fakes = [
      `data:image/png;base64,${Buffer.from('<svg onload=alert(1)>').toString('base64')}`,
      `data:image/gif;base64,${Buffer.from('GIF89a').toString('base64')}`,
      `data:image/jpeg;base64,${Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]).toString('base64')}`,
      PNG.slice(0, 60),
      `data:image/png;base64,${Buffer.concat([Buffer.from(PNG.split(',')[1] as string, 'base64'), Buffer.alloc(300 * 1024)]).toString('base64')}`,
    ];
    for (const letterheadLogo of fakes) {
      const refused = await patch({ letterheadLogo });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        error: messages.common.invalidRequest,
        fields: { letterheadLogo: expect.any(String) },
        requestId: expect.any(String),
      });
    }
    expect((await admin.request('GET', '/api/admin/settings')).body).toEqual(before.body);

    // The report writer draws it as an image on the first page.
    const doc = await PDFDocument.create();
    const writer = await PdfWriter.create(doc);
    await writer.logo(PNG);
    const parsed = await PDFDocument.load(await doc.save());
    const xObjects = parsed.getPage(0).node.Resources()?.lookup(PDFName.of('XObject'));
    expect(xObjects?.toString()).toMatch(/\/Image-\d+/);

    expect((await patch({ letterheadLogo: '' })).body.letterheadLogo).toBe('');
  });

  it('makes the chosen roles turn on two-factor authentication before anything else', async () => {
    const scheduler = await server.createUser({ role: 'scheduler' });
    const staff = await server.loginAs('staff');
    const refused = await patch({ twoFactorRequiredRoles: ['scheduler', 'nurse'] });
    expect(refused.status).toBe(400);
    expect(refused.body.fields).toHaveProperty('twoFactorRequiredRoles.1');
    expect((await patch({ twoFactorRequiredRoles: ['scheduler', 'scheduler'] })).status).toBe(400);
    const saved = await patch({ twoFactorRequiredRoles: ['scheduler'] });
    expect(saved.status).toBe(200);
    expect(saved.body.twoFactorRequiredRoles).toEqual(['scheduler']);

    const agent = await server.loginAs(scheduler.username);
    expect(agent.user).toMatchObject({ role: 'scheduler', mustEnrolTwoFactor: true });
    const me = await agent.request<{ mustEnrolTwoFactor: boolean }>('GET', '/api/auth/me');
    expect(me.body.mustEnrolTwoFactor).toBe(true);
    const blocked = await agent.request('GET', '/api/patients');
    expect(blocked.status).toBe(403);
    expect(blocked.body).toEqual({
      error: authMessages.twoFactorEnrolmentRequired,
      mustEnrolTwoFactor: true,
      requestId: expect.any(String),
    });
    // Other roles carry on as before.
    expect((await staff.request('GET', '/api/patients')).status).toBe(200);

    const setup = await agent.request<{ otpauthUrl: string }>('POST', '/api/auth/2fa/setup');
    expect(setup.status).toBe(200);
    const code = URI.parse(setup.body.otpauthUrl).generate();
    const enabled = await agent.request('POST', '/api/auth/2fa/enable', {
      body: { code, password: scheduler.password },
    });
    expect(enabled.status).toBe(200);
    expect((await agent.request<{ mustEnrolTwoFactor: boolean }>('GET', '/api/auth/me')).body).toMatchObject({
      mustEnrolTwoFactor: false,
      twoFactorEnabled: true,
    });
    expect((await agent.request('GET', '/api/patients')).status).toBe(200);
    expect((await patch({ twoFactorRequiredRoles: [] })).status).toBe(200);
  });

  it('gives new embed snippets the practice defaults', async () => {
    const scheduler = await server.loginAs('scheduler');
    const defaults = () => scheduler.request<EmbedDefaults>('GET', '/api/admin/embed-defaults');
    expect((await defaults()).body).toEqual({ theme: 'light', accentColor: '' });
    const bad = await patch({ embedTheme: 'neon', embedAccentColor: 'blue' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields ?? {}).sort()).toEqual(['embedAccentColor', 'embedTheme']);
    expect((await patch({ embedTheme: 'dark', embedAccentColor: '#0f766e' })).status).toBe(200);
    expect((await defaults()).body).toEqual({ theme: 'dark', accentColor: '#0f766e' });
    expect((await server.request('GET', '/api/admin/embed-defaults')).status).toBe(401);
    const [event] = await server
      .db('audit_events')
      .where({ action: 'setting.update' })
      .orderBy('id', 'desc')
      .limit(1);
    expect(event.details.keys.split(',').sort()).toEqual(['embedAccentColor', 'embedTheme']);
    expect(adminMessages.settings.fields.embedTheme).toBeTruthy();
  });
});
