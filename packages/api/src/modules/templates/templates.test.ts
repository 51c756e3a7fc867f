import { analyseTemplate, messagingMessages, type TemplateTrigger } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STARTER_TEMPLATES as STARTERS_0752 } from '../../db/migrations/0752_starter_templates.js';
import { PICKUP_REMINDER_EMAIL } from '../../db/migrations/0900_workflows.js';

const STARTER_TEMPLATES = [...STARTERS_0752, PICKUP_REMINDER_EMAIL];

import { type Agent, getTestServer, type TestServer } from '../../test/server.js';

const m = messagingMessages.templates;

interface TemplateDetail {
  id: number;
  name: string;
  version: number;
  active: boolean;
  containsPhi: boolean;
  content: { subject?: string; html?: string; text?: string; body?: string } | null;
  versions: { version: number; subject?: string; body?: string }[];
}

describe('templates', () => {
  let server: TestServer;
  let staff: Agent;

  beforeAll(async () => {
    server = await getTestServer();
    staff = await server.loginAs('staff');
  });
  afterAll(() => server.close());

  const countTemplates = async () => Number((await server.db('message_templates').count({ n: '*' }))[0]?.n);

  it('ships the starter templates, each valid for its trigger and marked PHI exactly when clinical', async () => {
    const list = await staff.request<{ items: { name: string; containsPhi: boolean; key: string }[] }>(
      'GET',
      '/api/templates',
    );
    expect(list.status).toBe(200);
    expect(list.body.items.map((t) => t.key).sort()).toEqual(STARTER_TEMPLATES.map((s) => s.key).sort());
    for (const starter of STARTER_TEMPLATES) {
      const analysis = analyseTemplate({ ...starter, trigger: starter.trigger as TemplateTrigger });
      expect(analysis.fields, starter.key).toEqual({});
      expect(list.body.items.find((t) => t.key === starter.key)?.containsPhi, starter.key).toBe(
        analysis.containsPhi,
      );
    }
  });

  it('creates an email template, marking it PHI when it uses a clinical variable', async () => {
    const created = await staff.request<TemplateDetail>('POST', '/api/templates', {
      body: {
        name: 'Referral follow-up',
        channel: 'email',
        category: 'referral',
        trigger: 'referral.received',
        subject: 'About {{ patient.name }}',
        html: '<p>Reason: {{ referral.reason }}</p>',
        text: 'Reason: {{ referral.reason }}',
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Referral follow-up',
      version: 1,
      active: true,
      containsPhi: true,
    });
    expect(created.body.content?.subject).toBe('About {{ patient.name }}');
  });

  it('refuses an unknown variable at save time, naming it, and writes nothing', async () => {
    const before = await countTemplates();
    const response = await staff.request<{ error: string; fields: Record<string, string> }>(
      'POST',
      '/api/templates',
      {
        body: {
          name: 'Typo',
          channel: 'email',
          category: 'reminder',
          trigger: 'booking.pickup_reminder',
          subject: 'Hello {{ patient.firstname }}',
          text: 'Your kit: {{ kit.type }} {{ referral.status }}',
        },
      },
    );
    expect(response.status).toBe(400);
    expect(response.body.fields).toEqual({
      subject: m.unknownVariable('patient.firstname'),
      // referral.* is not provided by a booking trigger.
      text: m.unknownVariable('referral.status'),
    });
    expect(await countTemplates()).toBe(before);
  });

  it('refuses clinical variables in an SMS, saying why', async () => {
    const template = {
      name: 'Bad text',
      channel: 'sms',
      category: 'referral',
      trigger: 'referral.received',
      body: 'Referral for {{ patient.firstName }}: {{ referral.diagnosis }} / {{ patient.medications }}',
    } as const;
    const response = await staff.request<{ error: string; fields: Record<string, string> }>(
      'POST',
      '/api/templates',
      {
        body: template,
      },
    );
    expect(response.status).toBe(400);
    const { clinical } = analyseTemplate(template);
    expect(clinical.sort()).toEqual(['patient.medications', 'referral.diagnosis']);
    expect(response.body.error).toBe(m.smsClinicalRefused(analyseTemplate(template).clinical));
    expect(response.body.fields.body).toBe(response.body.error);
  });

  it('refuses a syntax error, a missing subject and bad enums field by field', async () => {
    const syntax = await staff.request<{ fields: Record<string, string> }>('POST', '/api/templates', {
      body: {
        name: 'x',
        channel: 'sms',
        category: 'general',
        trigger: 'form.link',
        body: 'Open {{ form.link ',
      },
    });
    expect(syntax.status).toBe(400);
    expect(syntax.body.fields.body).toMatch(/^Template error: /);
    const subject = await staff.request<{ fields: Record<string, string> }>('POST', '/api/templates', {
      body: { name: 'x', channel: 'email', category: 'general', trigger: 'form.link', text: 'Hi' },
    });
    expect(subject.body.fields).toEqual({ subject: m.subjectRequired });
    const enums = await staff.request<{ fields: Record<string, string> }>('POST', '/api/templates', {
      body: { name: '', channel: 'fax', category: 'general', trigger: 'nope' },
    });
    expect(enums.status).toBe(400);
    expect(Object.keys(enums.body.fields).sort()).toEqual(['channel', 'name', 'trigger']);
  });

  it('keeps every version: an edit makes version 2 and version 1 stays readable', async () => {
    const created = await staff.request<TemplateDetail>('POST', '/api/templates', {
      body: {
        name: 'Kit ready',
        channel: 'sms',
        category: 'reminder',
        trigger: 'booking.pickup_reminder',
        body: 'Kit ready {{ booking.startDate }}',
      },
    });
    const id = created.body.id;
    const edited = await staff.request<TemplateDetail>('PUT', `/api/templates/${id}`, {
      body: { body: 'Your {{ kit.type }} kit is ready on {{ booking.startDate }}' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.version).toBe(2);
    expect(edited.body.content?.body).toBe('Your {{ kit.type }} kit is ready on {{ booking.startDate }}');
    expect(edited.body.versions.map((v) => [v.version, v.body])).toEqual([
      [2, 'Your {{ kit.type }} kit is ready on {{ booking.startDate }}'],
      [1, 'Kit ready {{ booking.startDate }}'],
    ]);
    // Deactivating changes no content: no new version.
    const off = await staff.request<TemplateDetail>('PUT', `/api/templates/${id}`, {
      body: { active: false },
    });
    expect(off.body).toMatchObject({ active: false, version: 2 });
    // A refused edit leaves the template as it was.
    const refused = await staff.request('PUT', `/api/templates/${id}`, {
      body: { body: '{{ report.results }}' },
    });
    expect(refused.status).toBe(400);
    const after = await staff.request<TemplateDetail>('GET', `/api/templates/${id}`);
    expect(after.body.version).toBe(2);
    expect(
      await server.db('audit_events').where({ action: 'template.update', entity_id: String(id) }),
    ).toHaveLength(2);
  });

  it('lets a physician neither read nor change templates', async () => {
    const physician = await server.loginAs('physician');
    expect((await physician.request('GET', '/api/templates')).status).toBe(403);
    expect((await physician.request('POST', '/api/templates', { body: {} })).status).toBe(403);
    expect((await staff.request('GET', '/api/templates/999999')).status).toBe(404);
  });
});
