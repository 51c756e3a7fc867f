import {
  type FormDefinitionInput,
  type FormSubmissionDetail,
  type FormSubmissionSummary,
  type FormTemplate,
  type FormTemplateSummary,
  formsMessages,
  yesNoOptions,
} from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPatient, linkPhysician } from '../../test/operations-fixtures.js';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';
import { ensureShippedForms } from './templates.js';

const SNORING: FormDefinitionInput = {
  title: 'Snoring check',
  sections: [
    {
      id: 'main',
      fields: [
        { id: 'snores', kind: 'yes_no', label: 'Do you snore?', required: true, options: yesNoOptions(2) },
        {
          id: 'nights',
          kind: 'number',
          label: 'Nights a week',
          required: true,
          validation: { min: 0, max: 7 },
          visibleWhen: { '==': [{ var: 'snores' }, 'yes'] },
        },
        { id: 'notes', kind: 'long_text', label: 'Anything else?' },
      ],
    },
  ],
  scoring: {
    bands: [
      { min: 0, max: 1, label: 'Low' },
      { min: 2, max: 2, label: 'Snorer' },
    ],
  },
};

// The smallest PNG there is (1x1), and the start of a PDF.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const SIGNATURE = `data:image/png;base64,${PNG.toString('base64')}`;

describe('e-forms API', () => {
  let server: TestServer;
  let staff: Agent;
  let physician: Agent;
  let technician: Agent;
  let own: { id: number };
  let other: { id: number };

  beforeAll(async () => {
    server = await getTestServer();
    staff = await server.loginAs('staff');
    const physicianUser = await server.createUser({ role: 'physician' });
    await linkPhysician(server.db, physicianUser.id, 901);
    physician = await server.loginAs(physicianUser.username);
    technician = await server.loginAs('technician');
    own = await insertPatient(server.db, { physicianId: 901 });
    other = await insertPatient(server.db, { physicianId: 902 });
  });
  afterAll(() => server.close());

  const count = async (table: string) => Number((await server.db(table).count({ n: '*' }))[0]?.n);

  async function publishedForm(): Promise<FormTemplate> {
    const created = await staff.request<FormTemplate>('POST', '/api/forms/templates', {
      body: { name: 'Snoring check', category: 'Screening', definition: SNORING },
    });
    expect(created.status).toBe(201);
    const published = await staff.request<FormTemplate>(
      'POST',
      `/api/forms/templates/${created.body.id}/publish`,
    );
    expect(published.status).toBe(200);
    return published.body;
  }

  describe('templates', () => {
    it('publishes a draft once, freezes it, and makes edits a new draft version', async () => {
      const created = await staff.request<FormTemplate>('POST', '/api/forms/templates', {
        body: { name: 'Snoring check', definition: SNORING },
      });
      expect(created.body).toMatchObject({ status: 'draft', version: 1, submissionCount: 0 });
      const id = created.body.id;

      const early = await staff.request('POST', `/api/forms/templates/${id}/submissions`, {
        body: { patientId: own.id, answers: { snores: 'no' } },
      });
      expect(early.status).toBe(409);
      expect(early.body.error).toBe(formsMessages.notPublished);

      // A draft is edited in place.
      const renamed = await staff.request<FormTemplate>('PUT', `/api/forms/templates/${id}`, {
        body: { name: 'Snoring screen', definition: SNORING },
      });
      expect(renamed.body).toMatchObject({ id, name: 'Snoring screen', version: 1, status: 'draft' });

      const published = await staff.request<FormTemplate>('POST', `/api/forms/templates/${id}/publish`);
      expect(published.body).toMatchObject({ id, status: 'published', version: 1, publishedId: id });
      const again = await staff.request('POST', `/api/forms/templates/${id}/publish`);
      expect(again.status).toBe(409);
      expect(again.body.error).toBe(formsMessages.alreadyPublished);

      // Editing the published version makes version 2 as a draft; version 1 is unchanged.
      const edited = { ...SNORING, title: 'Snoring check v2' };
      const draft = await staff.request<FormTemplate>('PUT', `/api/forms/templates/${id}`, {
        body: { name: 'Snoring screen', definition: edited },
      });
      expect(draft.body).toMatchObject({ version: 2, status: 'draft', familyId: id, publishedId: id });
      expect(draft.body.id).not.toBe(id);
      const v1 = await staff.request<FormTemplate>('GET', `/api/forms/templates/${id}`);
      expect(v1.body.definition.title).toBe('Snoring check');
      // A second edit of the published version goes to the same draft.
      const second = await staff.request<FormTemplate>('PUT', `/api/forms/templates/${id}`, {
        body: { name: 'Snoring screen', definition: edited },
      });
      expect(second.body.id).toBe(draft.body.id);

      const submitted = await staff.request('POST', `/api/forms/templates/${id}/submissions`, {
        body: { patientId: own.id, answers: { snores: 'no' } },
      });
      expect(submitted.status).toBe(201);

      // Publishing version 2 retires version 1; the submission keeps the version it answered.
      await staff.request('POST', `/api/forms/templates/${draft.body.id}/publish`);
      const list = await staff.request<FormTemplateSummary[]>('GET', '/api/forms/templates');
      const entry = list.body.find((t) => t.familyId === id);
      expect(entry).toMatchObject({ id: draft.body.id, version: 2, status: 'published', submissionCount: 1 });
      expect((await staff.request<FormTemplate>('GET', `/api/forms/templates/${id}`)).body.status).toBe(
        'archived',
      );
      const stored = await server.db('form_submissions').where({ id: submitted.body.id }).first();
      expect(stored).toMatchObject({ template_id: id, version: 1 });
    });

    it('refuses an invalid definition field by field', async () => {
      const response = await staff.request('POST', '/api/forms/templates', {
        body: {
          name: 'Broken',
          definition: {
            title: 'Broken',
            sections: [
              {
                id: 's',
                fields: [
                  { id: 'a', kind: 'number', label: 'A', visibleWhen: { '==': [{ var: 'b' }, 1] } },
                  { id: 'b', kind: 'number', label: 'B' },
                ],
              },
            ],
          },
        },
      });
      expect(response.status).toBe(400);
      expect(response.body.fields).toEqual({
        'definition.sections.0.fields.0.visibleWhen': formsMessages.conditionUnknownField('b'),
      });
    });

    it('duplicates and archives; an archived form takes no submissions', async () => {
      const form = await publishedForm();
      const copy = await staff.request<FormTemplate>('POST', `/api/forms/templates/${form.id}/duplicate`);
      expect(copy.body).toMatchObject({ status: 'draft', version: 1, name: 'Snoring check (copy)' });
      const archived = await staff.request<FormTemplate>('POST', `/api/forms/templates/${form.id}/archive`);
      expect(archived.body.status).toBe('archived');
      const refused = await staff.request('POST', `/api/forms/templates/${form.id}/submissions`, {
        body: { patientId: own.id, answers: { snores: 'no' } },
      });
      expect(refused.status).toBe(409);
      const edit = await staff.request('PUT', `/api/forms/templates/${form.id}`, {
        body: { name: 'x', definition: SNORING },
      });
      expect(edit.status).toBe(409);
    });

    it('is closed to roles without forms', async () => {
      expect((await technician.request('GET', '/api/forms/templates')).status).toBe(403);
      expect((await physician.request('POST', '/api/forms/templates', { body: {} })).status).toBe(403);
    });
  });

  describe('submissions', () => {
    it('refuses incomplete or invalid answers with one message per field and stores nothing', async () => {
      const form = await publishedForm();
      const before = [await count('form_submissions'), await count('outbox_events')];
      const missing = await staff.request('POST', `/api/forms/templates/${form.id}/submissions`, {
        body: { patientId: own.id, answers: { snores: 'yes', nights: 9 } },
      });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({
        error: formsMessages.submissionIncomplete,
        fields: { nights: formsMessages.numberMax(7) },
        requestId: expect.any(String),
      });
      const empty = await staff.request('POST', `/api/forms/templates/${form.id}/submissions`, {
        body: { patientId: own.id, answers: {} },
      });
      expect(empty.body.fields).toEqual({ snores: formsMessages.required });
      const noPatient = await staff.request('POST', `/api/forms/templates/${form.id}/submissions`, {
        body: { patientId: 999999, answers: { snores: 'no' } },
      });
      expect(noPatient.status).toBe(400);
      expect([await count('form_submissions'), await count('outbox_events')]).toEqual(before);
    });

    it('stores shown answers only, with score, band and version, and a form.submitted event', async () => {
      const form = await publishedForm();
      const response = await staff.request<{ id: number; score: unknown }>(
        'POST',
        `/api/forms/templates/${form.id}/submissions`,
        { body: { patientId: own.id, answers: { snores: 'no', nights: 5, notes: 'Sleeps on the left' } } },
      );
      expect(response.status).toBe(201);
      expect(response.body.score).toEqual({ score: 0, band: 'Low', max: 2 });
      const row = await server.db('form_submissions').where({ id: response.body.id }).first();
      expect(row).toMatchObject({
        answers: { snores: 'no', notes: 'Sleeps on the left' },
        score: 0,
        band: 'Low',
        version: 1,
        source: 'staff',
        submitted_by: staff.user.id,
      });
      const event = await server
        .db('outbox_events')
        .where({ topic: 'form.submitted' })
        .whereRaw("payload->>'submissionId' = ?", [String(response.body.id)])
        .first();
      expect(event.payload).toMatchObject({ templateId: form.id, patientId: own.id, score: 0, band: 'Low' });
      expect(event.dispatched_at).toBeNull();
    });

    it('accepts uploads checked by content, at most 10 MB, and claims them with the submission', async () => {
      const created = await staff.request<FormTemplate>('POST', '/api/forms/templates', {
        body: {
          name: 'Report upload',
          definition: {
            title: 'Report upload',
            sections: [
              {
                id: 's',
                fields: [
                  { id: 'report', kind: 'file', label: 'Report', required: true },
                  { id: 'sign', kind: 'signature', label: 'Sign', required: true },
                ],
              },
            ],
          },
        },
      });
      await staff.request('POST', `/api/forms/templates/${created.body.id}/publish`);
      const upload = (body: Buffer, name: string) =>
        fetch(`${server.url}/api/forms/uploads`, {
          method: 'POST',
          headers: {
            cookie: staff.cookie,
            origin: server.url,
            'content-type': 'application/octet-stream',
            'x-file-name': encodeURIComponent(name),
          },
          body,
        });
      const fake = await upload(Buffer.from('just some text, not a PDF'), 'report.pdf');
      expect(fake.status).toBe(415);
      expect(await fake.json()).toMatchObject({ error: formsMessages.fileType });
      const huge = await upload(Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]), 'big.png');
      expect(huge.status).toBe(413);
      const ok = await upload(PNG, 'scan.png');
      expect(ok.status).toBe(201);
      const file = (await ok.json()) as { fileId: string; contentType: string; size: number };
      expect(file).toMatchObject({ contentType: 'image/png', size: PNG.length, name: 'scan.png' });

      const submitted = await staff.request<{ id: number }>(
        'POST',
        `/api/forms/templates/${created.body.id}/submissions`,
        {
          body: { patientId: own.id, answers: { report: file, sign: SIGNATURE } },
        },
      );
      expect(submitted.status).toBe(201);
      expect((await server.db('form_files').where({ id: file.fileId }).first()).submission_id).toBe(
        submitted.body.id,
      );
      // A file can be claimed once.
      const reuse = await staff.request('POST', `/api/forms/templates/${created.body.id}/submissions`, {
        body: { patientId: own.id, answers: { report: file, sign: SIGNATURE } },
      });
      expect(reuse.body.fields).toEqual({ report: formsMessages.fileInvalid });

      const download = await fetch(
        `${server.url}/api/forms/submissions/${submitted.body.id}/files/${file.fileId}`,
        {
          headers: { cookie: staff.cookie },
        },
      );
      expect(download.status).toBe(200);
      expect(Buffer.from(await download.arrayBuffer()).equals(PNG)).toBe(true);

      const pdf = await fetch(`${server.url}/api/forms/submissions/${submitted.body.id}/pdf`, {
        headers: { cookie: staff.cookie },
      });
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(
        Buffer.from(await pdf.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
    });

    it('scopes reads to a physician’s own patients and audits every read', async () => {
      const form = await publishedForm();
      const mine = await staff.request<{ id: number }>(
        'POST',
        `/api/forms/templates/${form.id}/submissions`,
        {
          body: { patientId: own.id, answers: { snores: 'yes', nights: 4 } },
        },
      );
      const theirs = await staff.request<{ id: number }>(
        'POST',
        `/api/forms/templates/${form.id}/submissions`,
        {
          body: { patientId: other.id, answers: { snores: 'yes', nights: 2 } },
        },
      );

      const ownList = await physician.request<FormSubmissionSummary[]>(
        'GET',
        `/api/forms/submissions?patientId=${own.id}`,
      );
      expect(ownList.status).toBe(200);
      expect(ownList.body.map((s) => s.id)).toContain(mine.body.id);
      expect(ownList.body.find((s) => s.id === mine.body.id)).toMatchObject({
        score: 2,
        band: 'Snorer',
        maxScore: 2,
      });
      const otherList = await physician.request<FormSubmissionSummary[]>(
        'GET',
        `/api/forms/submissions?patientId=${other.id}`,
      );
      expect(otherList.body).toEqual([]);

      const read = await physician.request<FormSubmissionDetail>(
        'GET',
        `/api/forms/submissions/${mine.body.id}`,
      );
      expect(read.status).toBe(200);
      expect(read.body.answers).toEqual({ snores: 'yes', nights: 4 });
      const refused = await physician.request('GET', `/api/forms/submissions/${theirs.body.id}`);
      expect(refused.status).toBe(404);
      const refusedPdf = await physician.request('GET', `/api/forms/submissions/${theirs.body.id}/pdf`);
      expect(refusedPdf.status).toBe(404);
      const pdf = await fetch(`${server.url}/api/forms/submissions/${mine.body.id}/pdf`, {
        headers: { cookie: physician.cookie },
      });
      expect(pdf.status).toBe(200);

      const events = await server
        .db('audit_events')
        .where({ actor_user_id: physician.user.id })
        .whereLike('action', 'form_submission.%')
        .orderBy('id')
        .select('action', 'outcome', 'entity_type', 'entity_id');
      expect(events).toEqual([
        {
          action: 'form_submission.list',
          outcome: 'success',
          entity_type: 'patient',
          entity_id: String(own.id),
        },
        {
          action: 'form_submission.list',
          outcome: 'success',
          entity_type: 'patient',
          entity_id: String(other.id),
        },
        {
          action: 'form_submission.read',
          outcome: 'success',
          entity_type: 'form_submission',
          entity_id: String(mine.body.id),
        },
        {
          action: 'form_submission.read',
          outcome: 'denied',
          entity_type: 'form_submission',
          entity_id: String(theirs.body.id),
        },
        {
          action: 'form_submission.pdf',
          outcome: 'denied',
          entity_type: 'form_submission',
          entity_id: String(theirs.body.id),
        },
        {
          action: 'form_submission.pdf',
          outcome: 'success',
          entity_type: 'form_submission',
          entity_id: String(mine.body.id),
        },
      ]);
      // Identifiers only: no answers or names in the trail.
      const all = await server.db('audit_events').whereLike('action', 'form%').select('details');
      expect(JSON.stringify(all)).not.toMatch(/Sleeps on the left|Test Patient/);
    });
  });

  describe('token links', () => {
    async function link(templateId: number, patientId = own.id): Promise<string> {
      const response = await staff.request<{ formUrl: string; expiresAt: string }>(
        'POST',
        `/api/forms/templates/${templateId}/links`,
        { body: { patientId } },
      );
      expect(response.status).toBe(201);
      expect(response.body.formUrl).toMatch(/^\/patient-form\?token=[\w-]{43}$/);
      return new URL(response.body.formUrl, server.url).searchParams.get('token') ?? '';
    }

    it('opens the form for its patient once; a second submission is refused as used', async () => {
      const templates = await ensureShippedForms(server.db);
      const ess = templates.get('epworth') as number;
      const token = await link(ess);
      const view = await server.request('GET', `/api/public/forms/${token}`);
      expect(view.status).toBe(200);
      expect(view.body).toMatchObject({ title: 'Epworth Sleepiness Scale' });
      const answers = Object.fromEntries(
        [
          'reading',
          'tv',
          'public_place',
          'passenger',
          'afternoon_rest',
          'talking',
          'after_lunch',
          'traffic',
        ].map((k) => [`ess_${k}`, '2']),
      );
      const bad = await server.request('POST', `/api/public/forms/${token}/submit`, {
        body: { answers: { ...answers, ess_tv: '7' } },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.fields).toEqual({ ess_tv: formsMessages.invalidOption });
      const ok = await server.request('POST', `/api/public/forms/${token}/submit`, { body: { answers } });
      expect(ok.status).toBe(201);
      expect(ok.body).toEqual({ submitted: true });
      const row = await server.db('form_submissions').where({ source: 'link' }).orderBy('id', 'desc').first();
      expect(row).toMatchObject({
        patient_id: own.id,
        score: 16,
        band: 'Severe excessive daytime sleepiness',
      });

      const again = await server.request('POST', `/api/public/forms/${token}/submit`, { body: { answers } });
      expect(again.status).toBe(410);
      expect(again.body).toEqual({
        error: formsMessages.linkUsed,
        reason: 'used',
        requestId: expect.any(String),
      });
      expect((await server.request('GET', `/api/public/forms/${token}`)).status).toBe(410);
    });

    it('refuses an expired link and a forged one, storing nothing', async () => {
      const form = await publishedForm();
      const token = await link(form.id);
      await server
        .db('form_links')
        .orderBy('id', 'desc')
        .limit(1)
        .update({
          created_at: new Date(Date.now() - 9 * 86_400_000),
          expires_at: new Date(Date.now() - 1000),
        });
      const before = await count('form_submissions');
      const view = await server.request('GET', `/api/public/forms/${token}`);
      expect(view.status).toBe(410);
      expect(view.body).toEqual({
        error: formsMessages.linkExpired,
        reason: 'expired',
        requestId: expect.any(String),
      });
      const submit = await server.request('POST', `/api/public/forms/${token}/submit`, {
        body: { answers: { snores: 'no' } },
      });
      expect(submit.status).toBe(410);
      const forged = await server.request('GET', '/api/public/forms/forged-token');
      expect(forged.status).toBe(404);
      expect(forged.body).toEqual({
        error: formsMessages.linkInvalid,
        reason: 'invalid',
        requestId: expect.any(String),
      });
      expect(await count('form_submissions')).toBe(before);
    });

    it('does not let a physician send links for another physician’s patient', async () => {
      const form = await publishedForm();
      const refused = await physician.request('POST', `/api/forms/templates/${form.id}/links`, {
        body: { patientId: other.id },
      });
      expect(refused.status).toBe(403);
    });
  });
});
