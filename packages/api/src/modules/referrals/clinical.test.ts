import { randomUUID } from 'node:crypto';
import {
  clinicalMessages as cm,
  isValidNpi,
  PUBLIC_FORM_MIN_FILL_MS,
  publicFormsMessages,
  type ReferralDetail,
  type ReferralListItem,
} from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../db/seed/plan.js';
import { scanSlaClocks } from '../../jobs/sla-alerts.js';
import { insertBooking, insertKits, wednesdayAhead } from '../../test/operations-fixtures.js';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';

// The clinical pathway through HTTP on a real database: the physician directory, linking a
// physician user, referrals and their status rules, attachments, physician scoping (404 and an
// audit row), interpretation sign-off, the report, SLA definitions; and the public referral that
// must never change a record or reveal who is a patient (issue 14, items 1 and 13).

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

let npiCounter = 100_000_000 + Math.floor(Math.random() * 800_000_000);
/** A fresh valid NPI: nine digits and the Luhn check digit over 80840. */
function freshNpi(): string {
  npiCounter++;
  const base = String(npiCounter).slice(0, 9);
  for (let check = 0; check < 10; check++) {
    if (isValidNpi(`${base}${check}`)) return `${base}${check}`;
  }
  throw new Error('no check digit');
}

function antiBot() {
  return {
    startedAt: Date.now() - PUBLIC_FORM_MIN_FILL_MS - 1000,
    idempotencyKey: randomUUID(),
    website: '',
  };
}

async function count(server: TestServer, table: string): Promise<number> {
  const [row] = await server.db(table).count<{ count: string }[]>('* as count');
  return Number(row?.count ?? 0);
}

describe('clinical pathway', () => {
  let server: TestServer;
  let admin: Agent;
  let staff: Agent;

  async function createPhysician(
    name: string,
    extra: Record<string, unknown> = {},
  ): Promise<{ id: number; npi: string }> {
    const npi = freshNpi();
    const res = await staff.request<{ id: number }>('POST', '/api/physicians', {
      body: { name, npi, practice: 'North Sleep Clinic', email: `${npi}@example.test`, ...extra },
    });
    expect(res.status).toBe(201);
    return { id: res.body.id, npi };
  }

  /** A physician user signed in and linked (by an admin, through the API) to a new record. */
  async function physicianAgent(
    name: string,
  ): Promise<{ agent: Agent; physicianId: number; userId: number }> {
    const physician = await createPhysician(name);
    const user = await server.createUser({ role: 'physician' });
    const link = await admin.request('PUT', `/api/admin/users/${user.id}/physician`, {
      body: { physicianId: physician.id },
    });
    expect(link.status).toBe(200);
    return { agent: await server.loginAs(user.username), physicianId: physician.id, userId: user.id };
  }

  function upload(agent: Agent, referralId: number, body: Buffer, name: string) {
    return fetch(`${server.url}/api/referrals/${referralId}/attachments`, {
      method: 'POST',
      headers: {
        cookie: agent.cookie,
        origin: server.url,
        'content-type': 'application/octet-stream',
        'x-file-name': encodeURIComponent(name),
      },
      body,
    });
  }

  beforeAll(async () => {
    server = await getTestServer();
    admin = await server.loginAs('admin');
    staff = await server.loginAs('staff');
  });
  afterAll(() => server.close());

  describe('physician directory', () => {
    it('registers a physician, refusing a bad or taken NPI field by field and storing nothing', async () => {
      const before = await count(server, 'physicians');
      const bad = await staff.request('POST', '/api/physicians', { body: { name: '', npi: '1234567890' } });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        error: 'Invalid request',
        fields: { name: cm.physicianNameRequired, npi: cm.npiInvalid },
        requestId: expect.any(String),
      });
      expect(await count(server, 'physicians')).toBe(before);

      const npi = freshNpi();
      const check = await staff.request('GET', `/api/physicians/npi-check?npi=${npi}`);
      expect(check.body).toEqual({ valid: true, message: cm.npiValid, existing: null });
      const created = await staff.request<{ id: number; status: string; credentials: string }>(
        'POST',
        '/api/physicians',
        {
          body: {
            name: 'Dr Mira Holt',
            credentials: 'MD',
            npi,
            specialty: 'Pulmonology',
            practice: 'Holt Pulmonary',
          },
        },
      );
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ status: 'active', credentials: 'MD' });
      const taken = await staff.request('POST', '/api/physicians', { body: { name: 'Dr Other', npi } });
      expect(taken.status).toBe(409);
      expect(taken.body).toMatchObject({ error: cm.npiTaken, fields: { npi: cm.npiTaken } });
      expect((await staff.request('GET', `/api/physicians/npi-check?npi=${npi}`)).body).toMatchObject({
        valid: true,
        message: cm.npiTaken,
        existing: { id: created.body.id },
      });

      const edited = await staff.request('PATCH', `/api/physicians/${created.body.id}`, {
        body: { fax: '555-0190' },
      });
      expect(edited.body).toMatchObject({ fax: '555-0190', name: 'Dr Mira Holt' });
      const list = await staff.request<Array<{ id: number }>>('GET', '/api/physicians?q=Holt&status=active');
      expect(list.body.map((p) => p.id)).toContain(created.body.id);
      const csv = await staff.request('GET', '/api/physicians/export.csv?q=Holt');
      expect(csv.headers.get('content-type')).toContain('text/csv');
      expect(csv.text.split('\r\n')[0]).toContain('"NPI"');
      expect(csv.text).toContain(`"${npi}"`);
    });

    it('approves or rejects a pending physician once', async () => {
      const pending = await createPhysician('Dr Pending Pat', { status: 'pending' });
      const approved = await staff.request('POST', `/api/physicians/${pending.id}/approve`);
      expect(approved.body).toMatchObject({ status: 'active' });
      expect((await staff.request('POST', `/api/physicians/${pending.id}/approve`)).status).toBe(409);
      const other = await createPhysician('Dr Pending Quinn', { status: 'pending' });
      expect((await staff.request('POST', `/api/physicians/${other.id}/reject`)).body).toMatchObject({
        status: 'inactive',
      });
    });
  });

  describe('linking a physician user (issue 14, item 13)', () => {
    it('lets an administrator link and unlink; the physician then sees their own referrals only', async () => {
      const physician = await createPhysician('Dr Linked Lee');
      const user = await server.createUser({ role: 'physician' });
      const agent = await server.loginAs(user.username);
      // Not linked: nothing of patients'.
      expect((await agent.request('GET', '/api/referrals')).status).toBe(403);

      expect(
        (
          await staff.request('PUT', `/api/admin/users/${user.id}/physician`, {
            body: { physicianId: physician.id },
          })
        ).status,
      ).toBe(403);
      const scheduler = await server.createUser({ role: 'scheduler' });
      const wrongRole = await admin.request('PUT', `/api/admin/users/${scheduler.id}/physician`, {
        body: { physicianId: physician.id },
      });
      expect(wrongRole.status).toBe(400);
      expect(wrongRole.body.fields).toEqual({ physicianId: cm.notAPhysicianUser });

      const linked = await admin.request('PUT', `/api/admin/users/${user.id}/physician`, {
        body: { physicianId: physician.id },
      });
      expect(linked.body).toEqual({ userId: user.id, physicianId: physician.id });
      const users = await admin.request<Array<{ id: number; physicianId: number | null }>>(
        'GET',
        '/api/admin/users',
      );
      expect(users.body.find((u) => u.id === user.id)?.physicianId).toBe(physician.id);

      const mine = await staff.request<{ id: number }>('POST', '/api/referrals', {
        body: {
          physicianId: physician.id,
          newPatient: { name: 'Rory Linked', email: 'rory@example.test', phone: '555-0160' },
          reason: 'Daytime sleepiness and snoring',
          urgency: 'routine',
        },
      });
      const other = await createPhysician('Dr Not Lee');
      const theirs = await staff.request<{ id: number }>('POST', '/api/referrals', {
        body: {
          physicianId: other.id,
          newPatient: { name: 'Sky Other', email: 'sky@example.test', phone: '555-0161' },
          reason: 'Witnessed apneas during sleep',
          urgency: 'urgent',
        },
      });
      const seen = await agent.request<ReferralListItem[]>('GET', '/api/referrals');
      expect(seen.status).toBe(200);
      expect(seen.body.map((r) => r.id)).toEqual([mine.body.id]);
      expect((await agent.request('GET', `/api/physicians/${physician.id}`)).status).toBe(200);
      expect((await agent.request('GET', `/api/referrals/${theirs.body.id}`)).status).toBe(404);

      const unlinked = await admin.request('PUT', `/api/admin/users/${user.id}/physician`, {
        body: { physicianId: null },
      });
      expect(unlinked.body).toEqual({ userId: user.id, physicianId: null });
      expect((await agent.request('GET', `/api/referrals/${mine.body.id}`)).status).toBe(403);
      const events = await server
        .db('audit_events')
        .where({ entity_type: 'user', entity_id: String(user.id) });
      expect(events.map((e) => e.action)).toEqual(
        expect.arrayContaining(['physician.link_user', 'physician.unlink_user']),
      );
    });

    it('links the demo physician in the demo seed', async () => {
      const { seedDemo } = await import('../../db/seed/demo.js');
      const fresh = await getTestServer();
      try {
        await seedDemo(fresh.db, { timeZone: 'America/New_York' });
        const demo = await fresh.db('users').where({ username: 'physician' }).first('physician_id');
        expect(demo.physician_id).toEqual(expect.any(Number));
        // 'physician' names a role in loginAs: sign in as the seeded account itself.
        const login = await fresh.request('POST', '/api/auth/login', {
          body: { username: 'physician', password: DEMO_PASSWORD },
        });
        expect(login.status).toBe(200);
        const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
        const referrals = await fresh.request<ReferralListItem[]>('GET', '/api/referrals', { cookie });
        expect(referrals.body.length).toBeGreaterThan(0);
        expect(new Set(referrals.body.map((r) => r.physicianId))).toEqual(new Set([demo.physician_id]));
        expect(await fresh.db('physicians').count<{ count: string }[]>('* as count')).toEqual([
          { count: 12 },
        ]);
        expect(
          await fresh.db('physicians').where({ status: 'pending' }).count<{ count: string }[]>('* as count'),
        ).toEqual([{ count: 2 }]);
        expect(Number((await fresh.db('referrals').count<{ count: string }[]>('* as count'))[0]?.count)).toBe(
          60,
        );
        expect(
          Number((await fresh.db('sla_definitions').count<{ count: string }[]>('* as count'))[0]?.count),
        ).toBe(3);
      } finally {
        await fresh.close();
      }
    });
  });

  describe('referrals', () => {
    it('refuses bad codes and a missing patient, storing nothing', async () => {
      const physician = await createPhysician('Dr Codes');
      const before = await count(server, 'referrals');
      const patientsBefore = await count(server, 'patients');
      const res = await staff.request('POST', '/api/referrals', {
        body: {
          physicianId: physician.id,
          newPatient: { name: 'Kai Codes', email: 'kai@example.test', phone: '555-0170' },
          reason: 'Snoring',
          icd10Codes: ['G47.33', '4733'],
          urgency: 'soon',
        },
      });
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual({
        reason: cm.reasonRequired,
        'icd10Codes.1': cm.icd10Invalid('4733'),
        urgency: cm.urgencyRequired,
      });
      const noPatient = await staff.request('POST', '/api/referrals', {
        body: { physicianId: physician.id, reason: 'Snoring every night', urgency: 'routine' },
      });
      expect(noPatient.body.fields).toEqual({ patientId: cm.patientRequired });
      expect(await count(server, 'referrals')).toBe(before);
      expect(await count(server, 'patients')).toBe(patientsBefore);
    });

    it('scopes physicians to their own referrals: another answers 404 and the attempt is audited', async () => {
      const a = await physicianAgent('Dr Scope A');
      const b = await physicianAgent('Dr Scope B');
      const created = await a.agent.request<ReferralDetail>('POST', '/api/referrals', {
        body: {
          // Whatever physician the body names, a physician's referral is theirs.
          physicianId: b.physicianId,
          newPatient: { name: 'Dana Scoped', email: 'dana@example.test', phone: '555-0171' },
          reason: 'Loud snoring, morning headaches',
          icd10Codes: ['g47.33'],
          urgency: 'urgent',
        },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        physicianId: a.physicianId,
        status: 'received',
        icd10Codes: ['G47.33'],
      });
      const id = created.body.id;
      expect((await a.agent.request('GET', `/api/referrals/${id}`)).status).toBe(200);
      const other = await b.agent.request('GET', `/api/referrals/${id}`);
      expect(other.status).toBe(404);
      expect(other.body).toEqual({ error: 'Not found', requestId: expect.any(String) });
      expect((await b.agent.request('GET', `/api/referrals/${id}/report.pdf`)).status).toBe(404);
      expect((await upload(b.agent, id, PNG, 'x.png')).status).toBe(404);
      const denied = await server.db('audit_events').where({
        actor_user_id: b.userId,
        entity_type: 'referral',
        entity_id: String(id),
        outcome: 'denied',
      });
      expect(denied.length).toBeGreaterThanOrEqual(3);
      expect((await b.agent.request<ReferralListItem[]>('GET', '/api/referrals')).body).toEqual([]);
      // Physicians do not change statuses.
      expect(
        (await a.agent.request('POST', `/api/referrals/${id}/status`, { body: { status: 'contacted' } }))
          .status,
      ).toBe(403);
    });

    it('takes PDF, JPEG and PNG attachments by content, up to 10 MB, storing nothing else', async () => {
      const a = await physicianAgent('Dr Attach');
      const created = await a.agent.request<ReferralDetail>('POST', '/api/referrals', {
        body: {
          newPatient: { name: 'Ari Attach', email: 'ari@example.test', phone: '555-0172' },
          reason: 'Snoring and gasping at night',
          urgency: 'routine',
        },
      });
      const id = created.body.id;
      const before = await count(server, 'referral_attachments');
      const text = await upload(a.agent, id, Buffer.from('not really a pdf'), 'notes.pdf');
      expect(text.status).toBe(400);
      expect(await text.json()).toMatchObject({
        error: cm.attachmentType,
        fields: { file: cm.attachmentType },
      });
      const huge = await upload(a.agent, id, Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024)]), 'big.pdf');
      expect(huge.status).toBe(400);
      expect(await huge.json()).toMatchObject({ error: cm.attachmentTooLarge });
      expect(await count(server, 'referral_attachments')).toBe(before);
      const png = await upload(a.agent, id, PNG, 'scan.png');
      expect(png.status).toBe(201);
      const pdf = await upload(a.agent, id, PDF, 'letter.pdf');
      const file = (await pdf.json()) as { id: string; contentType: string };
      expect(file.contentType).toBe('application/pdf');
      const detail = await a.agent.request<ReferralDetail>('GET', `/api/referrals/${id}`);
      expect(detail.body.attachments.map((f) => f.filename)).toEqual(['scan.png', 'letter.pdf']);
      const download = await fetch(`${server.url}/api/referrals/${id}/attachments/${file.id}`, {
        headers: { cookie: a.agent.cookie },
      });
      expect(Buffer.from(await download.arrayBuffer()).equals(PDF)).toBe(true);
    });

    it('runs the pathway: each transition allowed or refused, booking, completion, reading, sign-off, report', async () => {
      const a = await physicianAgent('Dr Pathway');
      const created = await a.agent.request<ReferralDetail>('POST', '/api/referrals', {
        body: {
          newPatient: { name: 'Pat Pathway', email: 'pat@example.test', phone: '555-0173' },
          reason: 'Suspected obstructive sleep apnea',
          icd10Codes: ['G47.33'],
          urgency: 'stat',
          preferredKitType: 'Somfit',
        },
      });
      const id = created.body.id;
      const patientId = created.body.patientId as number;
      const status = (to: string, note?: string) =>
        staff.request<ReferralDetail & { error?: string; fields?: Record<string, string> }>(
          'POST',
          `/api/referrals/${id}/status`,
          { body: { status: to, note } },
        );

      const skip = await status('tested');
      expect(skip.status).toBe(409);
      expect(skip.body.error).toBe(cm.transitionRefused('received', 'tested'));
      expect((await status('interpreted')).status).toBe(409);
      const declineNoReason = await status('declined');
      expect(declineNoReason.status).toBe(400);
      expect(declineNoReason.body.fields).toEqual({ note: cm.reasonForStatus });
      expect((await status('contacted')).body.status).toBe('contacted');

      const [kit] = await insertKits(server.db, 'Somfit', 1);
      const someoneElse = await server
        .db('patients')
        .insert({ name: 'Else', email: 'e@example.test', phone: '1' })
        .returning('id');
      const wrongBooking = await insertBooking(server.db, {
        patientId: (someoneElse[0] as { id: number }).id,
        kitId: null,
        kitType: 'Somfit',
        startDate: wednesdayAhead(3),
      });
      const wrong = await staff.request('POST', `/api/referrals/${id}/booking`, {
        body: { bookingId: wrongBooking },
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.fields).toEqual({ bookingId: cm.bookingNotForPatient });
      const bookingId = await insertBooking(server.db, {
        patientId,
        kitId: kit?.id ?? null,
        kitType: 'Somfit',
        startDate: wednesdayAhead(2),
      });
      const scheduled = await staff.request<ReferralDetail>('POST', `/api/referrals/${id}/booking`, {
        body: { bookingId },
      });
      expect(scheduled.body).toMatchObject({ status: 'scheduled', bookingId, booking: { id: bookingId } });

      // The kit goes out and comes back: the referral is tested.
      const scheduler = await server.loginAs('scheduler');
      expect(
        (
          await scheduler.request('POST', `/api/bookings/${bookingId}/status`, {
            body: { status: 'picked_up' },
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await scheduler.request('POST', `/api/bookings/${bookingId}/status`, {
            body: { status: 'completed' },
          })
        ).status,
      ).toBe(200);
      const tested = await staff.request<ReferralDetail>('GET', `/api/referrals/${id}`);
      expect(tested.body.status).toBe('tested');
      expect(tested.body.events.map((e) => `${e.fromStatus ?? ''}>${e.toStatus}:${e.via}`)).toEqual([
        '>received:console',
        'received>contacted:manual',
        'contacted>scheduled:booking',
        'scheduled>tested:booking_completed',
      ]);

      // Only the medical director assigns; only an active physician or director reads.
      const director = await server.loginAs('medical_director');
      const reader = await physicianAgent('Dr Reader');
      expect(
        (
          await scheduler.request('POST', `/api/interpretations/${id}/assign`, {
            body: { readerUserId: reader.userId },
          })
        ).status,
      ).toBe(403);
      const staffUser = await server.createUser({ role: 'staff' });
      const badReader = await director.request('POST', `/api/interpretations/${id}/assign`, {
        body: { readerUserId: staffUser.id },
      });
      expect(badReader.body.fields).toEqual({ readerUserId: cm.readerInvalid });
      const queue = await director.request<{ awaiting: Array<{ referralId: number; urgency: string }> }>(
        'GET',
        '/api/medical-director/dashboard',
      );
      expect(queue.body.awaiting[0]).toMatchObject({ referralId: id, urgency: 'stat' });
      expect(
        (
          await director.request('POST', `/api/interpretations/${id}/assign`, {
            body: { readerUserId: reader.userId },
          })
        ).status,
      ).toBe(200);

      // The reader sees the test assigned to them, though the patient is another physician's.
      const readerDashboard = await reader.agent.request<{ toRead: Array<{ referralId: number }> }>(
        'GET',
        '/api/physician-dashboard',
      );
      expect(readerDashboard.body.toRead.map((t) => t.referralId)).toEqual([id]);
      const assignment = await reader.agent.request<{ canSign: boolean; canAssign: boolean }>(
        'GET',
        `/api/interpretations/${id}`,
      );
      expect(assignment.body).toMatchObject({ canSign: true, canAssign: false });
      expect((await a.agent.request('GET', `/api/interpretations/${id}`)).status).toBe(404);
      // The director may not sign a test assigned to someone else.
      expect(
        (await director.request('POST', `/api/interpretations/${id}/sign`, { body: { credential: 'x' } }))
          .status,
      ).toBe(404);

      const incomplete = await reader.agent.request('POST', `/api/interpretations/${id}/sign`, {
        body: { credential: 'test-password-123', ahi: 22.4 },
      });
      expect(incomplete.status).toBe(400);
      expect(incomplete.body.fields).toMatchObject({
        odi: cm.numberRequired,
        impression: cm.impressionRequired,
      });
      const draft = await reader.agent.request<ReferralDetail>('PUT', `/api/interpretations/${id}`, {
        body: {
          ahi: 22.4,
          odi: 18,
          lowestSpo2: 84,
          recordingMinutes: 412,
          impression: 'Moderate obstructive sleep apnea.',
        },
      });
      expect(draft.body.interpretation).toMatchObject({ ahi: 22.4, severity: 'moderate', signedAt: null });
      const wrongPassword = await reader.agent.request('POST', `/api/interpretations/${id}/sign`, {
        body: { credential: 'not-my-password', recommendation: 'CPAP titration.' },
      });
      expect(wrongPassword.status).toBe(400);
      expect(wrongPassword.body.fields).toEqual({ credential: cm.signRefused });
      expect((await staff.request<ReferralDetail>('GET', `/api/referrals/${id}`)).body.status).toBe('tested');
      const signed = await reader.agent.request<ReferralDetail>('POST', `/api/interpretations/${id}/sign`, {
        body: { credential: 'test-password-123', recommendation: 'CPAP titration.' },
      });
      expect(signed.status).toBe(200);
      expect(signed.body.status).toBe('reported');
      expect(signed.body.interpretation).toMatchObject({ severity: 'moderate', reportReady: true });

      // Signed means final: the API and the database both refuse a change.
      const edit = await reader.agent.request('PUT', `/api/interpretations/${id}`, { body: { ahi: 3 } });
      expect(edit.status).toBe(409);
      expect(edit.body.error).toBe(cm.alreadySigned);
      expect(
        (
          await reader.agent.request('POST', `/api/interpretations/${id}/sign`, {
            body: { credential: 'test-password-123' },
          })
        ).status,
      ).toBe(409);
      expect(
        (
          await director.request('POST', `/api/interpretations/${id}/assign`, {
            body: { readerUserId: reader.userId },
          })
        ).status,
      ).toBe(409);
      await expect(
        server.db('interpretations').where({ referral_id: id }).update({ ahi: 3 }),
      ).rejects.toThrow();
      const addendum = await reader.agent.request<ReferralDetail>(
        'POST',
        `/api/interpretations/${id}/addenda`,
        {
          body: { text: 'Recording reviewed again; no change.' },
        },
      );
      expect(addendum.status).toBe(201);
      expect(addendum.body.interpretation?.addenda).toHaveLength(1);

      // The referring physician is told, and downloads the report.
      const told = await a.agent.request<{ items: Array<{ title: string; link: string }> }>(
        'GET',
        '/api/notifications',
      );
      expect(told.body.items).toContainEqual(
        expect.objectContaining({ title: cm.reportReadyTitle, link: `/referrals?referral=${id}` }),
      );
      expect(
        await server
          .db('outbox_events')
          .where({ topic: 'report.ready' })
          .whereRaw("(payload->>'referralId')::int = ?", [id]),
      ).toHaveLength(1);
      const report = await fetch(`${server.url}/api/referrals/${id}/report.pdf`, {
        headers: { cookie: a.agent.cookie },
      });
      expect(report.status).toBe(200);
      expect(report.headers.get('content-type')).toBe('application/pdf');
      expect(
        Buffer.from(await report.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
      const dashboard = await a.agent.request<{ reportsReady: Array<{ id: number }> }>(
        'GET',
        '/api/physician-dashboard',
      );
      expect(dashboard.body.reportsReady.map((r) => r.id)).toContain(id);
      // Final: nothing moves a reported referral.
      expect((await status('cancelled', 'Patient moved away')).status).toBe(409);
    });

    it('changes many statuses at once, leaving those that may not change', async () => {
      const physician = await createPhysician('Dr Bulk');
      const ids: number[] = [];
      for (const n of [1, 2]) {
        const res = await staff.request<{ id: number }>('POST', '/api/referrals', {
          body: {
            physicianId: physician.id,
            newPatient: { name: `Bulk ${n}`, email: `bulk${n}@example.test`, phone: '555-0174' },
            reason: 'Insomnia and snoring reported',
            urgency: 'routine',
          },
        });
        ids.push(res.body.id);
      }
      await staff.request('POST', `/api/referrals/${ids[0]}/status`, {
        body: { status: 'cancelled', note: 'Duplicate' },
      });
      const bulk = await staff.request('POST', '/api/referrals/bulk-status', {
        body: { ids, status: 'contacted' },
      });
      expect(bulk.body).toEqual({ updated: [ids[1]], refused: [ids[0]] });
    });
  });

  describe('SLA definitions', () => {
    it('lets only an administrator define targets, validated, and counts referrals against them', async () => {
      expect(
        (
          await staff.request('POST', '/api/sla/definitions', {
            body: { name: 'x', fromStage: 'received', toStage: 'contacted', targetHours: 4 },
          })
        ).status,
      ).toBe(403);
      const bad = await admin.request('POST', '/api/sla/definitions', {
        body: { name: '', fromStage: 'scheduled', toStage: 'received', targetHours: -1 },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.fields).toEqual({
        name: cm.slaNameRequired,
        targetHours: cm.targetPositive,
        toStage: cm.stageOrder,
      });
      const created = await admin.request<{ id: number }>('POST', '/api/sla/definitions', {
        body: {
          name: 'First contact',
          fromStage: 'received',
          toStage: 'contacted',
          targetHours: 1000,
          businessHours: false,
        },
      });
      expect(created.status).toBe(201);
      const physician = await createPhysician('Dr Clock');
      const referral = await staff.request<ReferralDetail>('POST', '/api/referrals', {
        body: {
          physicianId: physician.id,
          newPatient: { name: 'Clock Patient', email: 'clock@example.test', phone: '555-0175' },
          reason: 'Restless sleep and snoring',
          urgency: 'routine',
        },
      });
      expect(referral.body.sla).toEqual([
        expect.objectContaining({ definitionId: created.body.id, state: 'on_track' }),
      ]);
      await staff.request('POST', `/api/referrals/${referral.body.id}/status`, {
        body: { status: 'contacted' },
      });
      const dashboard = await staff.request<{
        perDefinition: Array<{ definitionId: number; met: number; onTimePercent: number }>;
      }>('GET', '/api/sla/dashboard');
      expect(dashboard.body.perDefinition.find((d) => d.definitionId === created.body.id)).toMatchObject({
        met: expect.any(Number),
        onTimePercent: 100,
      });
      const updated = await admin.request('PUT', `/api/sla/definitions/${created.body.id}`, {
        body: {
          name: 'First contact',
          fromStage: 'received',
          toStage: 'contacted',
          targetHours: 2,
          active: false,
        },
      });
      expect(updated.body).toMatchObject({ targetHours: 2, active: false });
      expect((await admin.request('DELETE', `/api/sla/definitions/${created.body.id}`)).status).toBe(204);
    });

    it('keeps the practice calendar the business-hours clocks count in (administrators edit it)', async () => {
      expect((await staff.request('GET', '/api/sla/calendar')).body).toMatchObject({
        workDays: [1, 2, 3, 4, 5],
        open: '08:00',
        close: '17:00',
        holidays: [],
      });
      const body = { workDays: [1, 2, 3, 4], open: '09:00', close: '17:30', holidays: ['2026-12-25'] };
      expect((await staff.request('PUT', '/api/sla/calendar', { body })).status).toBe(403);
      const bad = await admin.request('PUT', '/api/sla/calendar', {
        body: { ...body, close: '08:00', holidays: ['2026-02-30'] },
      });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.fields as object).sort()).toEqual(['close', 'holidays.0']);
      expect((await admin.request('PUT', '/api/sla/calendar', { body })).body).toMatchObject(body);
      await admin.request('PUT', '/api/sla/calendar', {
        body: { workDays: [1, 2, 3, 4, 5], open: '08:00', close: '17:00', holidays: [] },
      });
    });

    it('prints the letterhead an administrator sets on the reports', async () => {
      expect((await staff.request('GET', '/api/sla/letterhead')).body).toMatchObject({
        name: 'Wellrest Sleep Center',
      });
      const body = {
        name: 'Lakeside Sleep Clinic',
        address: '1 Shore Road',
        phone: '555-0100',
        email: 'care@lakeside.example',
      };
      expect((await staff.request('PUT', '/api/sla/letterhead', { body })).status).toBe(403);
      const bad = await admin.request('PUT', '/api/sla/letterhead', { body: { ...body, name: ' ' } });
      expect(bad.body.fields).toEqual({ name: cm.letterheadNameRequired });
      expect((await admin.request('PUT', '/api/sla/letterhead', { body })).body).toEqual(body);
    });

    it('announces a clock at risk or breached once, to the schedulers, without naming the patient', async () => {
      const definition = await admin.request<{ id: number }>('POST', '/api/sla/definitions', {
        body: {
          name: 'Stat first contact',
          fromStage: 'received',
          toStage: 'contacted',
          targetHours: 1,
          businessHours: false,
          urgencies: ['stat'],
        },
      });
      const physician = await createPhysician('Dr Alarm');
      const referral = await staff.request<ReferralDetail>('POST', '/api/referrals', {
        body: {
          physicianId: physician.id,
          newPatient: { name: 'Alex Alarmed', email: 'alex.alarm@example.test', phone: '555-0176' },
          reason: 'Severe daytime sleepiness while driving',
          urgency: 'stat',
        },
      });
      const id = referral.body.id;
      const scheduler = await server.loginAs('scheduler');
      const inbox = async () =>
        (
          await scheduler.request<{ items: Array<{ title: string; body: string; link: string }> }>(
            'GET',
            '/api/notifications',
          )
        ).body.items.filter((n) => n.link === `/referrals?referral=${id}`);
      // 50 minutes in: at risk (over 80 % of the hour).
      await scanSlaClocks(server.db, 'America/New_York', new Date(Date.now() + 50 * 60_000));
      expect((await inbox()).map((n) => n.title)).toEqual([cm.slaAlertTitle]);
      // Again: nothing new. Past the hour: breached, once.
      await scanSlaClocks(server.db, 'America/New_York', new Date(Date.now() + 55 * 60_000));
      await scanSlaClocks(server.db, 'America/New_York', new Date(Date.now() + 90 * 60_000));
      await scanSlaClocks(server.db, 'America/New_York', new Date(Date.now() + 95 * 60_000));
      const items = await inbox();
      expect(items.map((n) => n.title).sort()).toEqual([cm.slaAlertTitle, cm.slaBreachTitle].sort());
      expect(JSON.stringify(items)).not.toContain('Alex Alarmed');
      expect(
        await server
          .db('outbox_events')
          .where({ topic: 'referral.sla_breached' })
          .whereRaw("(payload->>'referralId')::int = ?", [id]),
      ).toHaveLength(1);
      await admin.request('DELETE', `/api/sla/definitions/${definition.body.id}`);
    });
  });

  describe('public referrals (issue 14, item 1)', () => {
    function publicReferral(physician: Record<string, unknown>, patient: Record<string, unknown>) {
      return server.request<{ requestId: string }>('POST', '/api/public/referrals', {
        body: {
          physician,
          patient,
          reason: 'Loud snoring and witnessed apneas',
          urgency: 'urgent',
          ...antiBot(),
        },
      });
    }

    it('never changes an existing physician record, keeping what was sent beside the match', async () => {
      const existing = await createPhysician('Dr Real Name', { phone: '555-0100' });
      const before = await server.db('physicians').where({ id: existing.id }).first();
      const res = await publicReferral(
        {
          name: 'Dr Attacker Renamed',
          npi: existing.npi,
          email: 'attacker@evil.test',
          phone: '555-6666',
          practice: 'Evil',
        },
        { name: 'Sam Public', phone: '555-0111', email: 'sam.public@example.test' },
      );
      expect(res.status).toBe(201);
      const after = await server.db('physicians').where({ id: existing.id }).first();
      expect(after).toEqual(before);
      const referral = await server.db('referrals').where({ request_id: res.body.requestId }).first();
      expect(referral).toMatchObject({
        physician_id: existing.id,
        status: 'received',
        source: 'public',
        submitted_physician: {
          name: 'Dr Attacker Renamed',
          npi: existing.npi,
          email: 'attacker@evil.test',
          phone: '555-6666',
          practice: 'Evil',
        },
      });
      const detail = await staff.request<ReferralDetail>('GET', `/api/referrals/${referral.id}`);
      expect(detail.body).toMatchObject({
        physicianName: 'Dr Real Name',
        submittedPhysician: { name: 'Dr Attacker Renamed', email: 'attacker@evil.test' },
      });
    });

    it('creates an unknown NPI as a pending physician, and takes an attachment only if its content matches', async () => {
      const npi = freshNpi();
      const before = await count(server, 'referrals');
      const fake = await server.request('POST', '/api/public/referrals', {
        body: {
          physician: { name: 'Dr New', npi, email: 'new@example.test' },
          patient: { name: 'Lee Public', phone: '555-0112' },
          reason: 'Loud snoring and witnessed apneas',
          urgency: 'routine',
          attachment: {
            filename: 'x.pdf',
            contentType: 'application/pdf',
            dataBase64: Buffer.from('hello world').toString('base64'),
          },
          ...antiBot(),
        },
      });
      expect(fake.status).toBe(400);
      expect(fake.body.fields).toEqual({ 'attachment.contentType': publicFormsMessages.attachmentType });
      expect(await count(server, 'referrals')).toBe(before);
      const ok = await publicReferral(
        { name: 'Dr New', npi, email: 'new@example.test' },
        { name: 'Lee Public', phone: '555-0112' },
      );
      expect(ok.status).toBe(201);
      expect(await server.db('physicians').where({ npi }).first()).toMatchObject({
        name: 'Dr New',
        status: 'pending',
      });
    });

    it('does not reveal, in any later answer, that the person named is a patient', async () => {
      const physician = await physicianAgent('Dr Public Match');
      const npi = (await server.db('physicians').where({ id: physician.physicianId }).first('npi'))
        .npi as string;
      // An existing patient of another physician, and a person who is nobody's patient.
      const [known] = await server
        .db('patients')
        .insert({
          name: 'Morgan Known',
          email: 'morgan.known@example.test',
          phone: '555-0140',
          date_of_birth: '1970-01-02',
        })
        .returning('id');
      const patientsBefore = await count(server, 'patients');
      const hit = await publicReferral(
        { name: 'Dr Public Match', npi, email: 'pm@example.test' },
        { name: 'Morgan Known', email: 'morgan.known@example.test', phone: '555-0999' },
      );
      const miss = await publicReferral(
        { name: 'Dr Public Match', npi, email: 'pm@example.test' },
        { name: 'Nobody Atall', email: 'nobody@example.test', phone: '555-0998' },
      );
      // The same answer for both.
      expect(hit.status).toBe(miss.status);
      expect(Object.keys(hit.body).sort()).toEqual(Object.keys(miss.body).sort());
      // Neither is tied to a patient record until staff review it, and no record was created or read.
      const rows = await server
        .db('referrals')
        .whereIn('request_id', [hit.body.requestId, miss.body.requestId]);
      expect(rows.map((r) => r.patient_id)).toEqual([null, null]);
      expect(await count(server, 'patients')).toBe(patientsBefore);
      // The referring physician sees exactly what was sent for both, nothing from the patient record.
      const list = await physician.agent.request<ReferralListItem[]>('GET', '/api/referrals');
      const hitItem = list.body.find((r) => r.requestId === hit.body.requestId);
      const missItem = list.body.find((r) => r.requestId === miss.body.requestId);
      expect(hitItem).toMatchObject({ patientId: null, patientName: 'Morgan Known' });
      expect(missItem).toMatchObject({ patientId: null, patientName: 'Nobody Atall' });
      const hitDetail = await physician.agent.request<ReferralDetail>('GET', `/api/referrals/${hitItem?.id}`);
      expect(JSON.stringify(hitDetail.body)).not.toContain('1970-01-02');
      expect(JSON.stringify(hitDetail.body)).not.toContain('555-0140');
      expect(
        (await physician.agent.request('GET', `/api/referrals/${hitItem?.id}/patient-matches`)).status,
      ).toBe(403);

      // Staff see the possible match and link it.
      const matches = await staff.request<Array<{ id: number }>>(
        'GET',
        `/api/referrals/${hitItem?.id}/patient-matches`,
      );
      expect(matches.body.map((m) => m.id)).toContain((known as { id: number }).id);
      const linked = await staff.request<ReferralDetail>('POST', `/api/referrals/${hitItem?.id}/patient`, {
        body: { patientId: (known as { id: number }).id },
      });
      expect(linked.body.patientId).toBe((known as { id: number }).id);
      const created = await staff.request<ReferralDetail>('POST', `/api/referrals/${missItem?.id}/patient`, {
        body: { createFromSubmission: true },
      });
      expect(created.body.patientId).toEqual(expect.any(Number));
      expect(
        (
          await staff.request('POST', `/api/referrals/${missItem?.id}/patient`, {
            body: { createFromSubmission: true },
          })
        ).status,
      ).toBe(409);
    });
  });
});
