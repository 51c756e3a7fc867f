import { createHash, randomBytes } from 'node:crypto';
import {
  type Answers,
  type FormDefinition,
  type FormLinkCreated,
  type FormLinkProblem,
  type FormSubmissionDetail,
  type FormSubmissionSummary,
  type FormSubmitted,
  formsMessages,
  type PublicFormView,
  validateSubmission,
} from '@wellrest/core';
import type { Knex } from 'knex';
import { audit } from '../../audit/audit.js';
import type { AppContext } from '../../http/context.js';
import { badRequest, conflict, HttpError, notFound } from '../../http/errors.js';
import { writeOutbox } from '../../jobs/outbox.js';
import { applyScope, scopeOf } from '../patients/access.js';
import { claimUploads } from './files.js';
import { type TemplateRow, templateRow } from './templates.js';

// Submissions: checked by core's one rule, stored with the version they answered, the score and
// band, and a "form submitted" domain event in the same transaction. Reads are scoped by the
// caller's ability (a physician sees only their patients') and every read is audited.

/** How long a form link sent to a patient stays valid. */
export const FORM_LINK_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

export function hashFormToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

interface Submitter {
  source: 'staff' | 'link';
  userId: number | null;
  linkId: number | null;
}

function requireTransaction(db: Knex): Knex.Transaction {
  if (!db.isTransaction) throw new Error('submissions are stored inside the request transaction');
  return db as Knex.Transaction;
}

/** Checks and stores one submission; 400 with one message per field and nothing stored when it fails. */
async function storeSubmission(
  db: Knex,
  ctx: AppContext,
  template: TemplateRow,
  patientId: number,
  raw: Record<string, unknown>,
  submitter: Submitter,
): Promise<FormSubmitted> {
  const trx = requireTransaction(db);
  const checked = validateSubmission(template.definition, raw);
  if (!checked.ok) throw badRequest(formsMessages.submissionIncomplete, { fields: checked.errors });
  const owner = { userId: submitter.userId, linkId: submitter.linkId };
  const fileProblems = await claimUploads(trx, checked.answers, owner, null);
  if (Object.keys(fileProblems).length > 0)
    throw badRequest(formsMessages.submissionIncomplete, { fields: fileProblems });

  const score = checked.score;
  const [row] = await trx('form_submissions')
    .insert({
      template_id: template.id,
      family_id: template.family_id,
      version: template.version,
      patient_id: patientId,
      source: submitter.source,
      link_id: submitter.linkId,
      submitted_by: submitter.userId,
      answers: JSON.stringify(checked.answers),
      score: score?.score ?? null,
      max_score: score?.max ?? null,
      band: score?.band ?? null,
    })
    .returning('id');
  const id = (row as { id: number }).id;
  await claimUploads(trx, checked.answers, owner, id);
  // Identifiers, score and band only: never names or answers.
  await writeOutbox(trx, 'form.submitted', {
    submissionId: id,
    templateId: template.id,
    familyId: template.family_id,
    version: template.version,
    patientId,
    source: submitter.source,
    score: score?.score ?? null,
    band: score?.band ?? null,
  });
  await audit(trx, ctx, {
    action: 'form_submission.create',
    outcome: 'success',
    entityType: 'form_submission',
    entityId: id,
    details: { templateId: template.id, version: template.version, patientId, source: submitter.source },
  });
  return { id, score };
}

async function publishedTemplate(db: Knex, id: number): Promise<TemplateRow> {
  const template = await templateRow(db, id);
  if (template.status !== 'published') throw conflict(formsMessages.notPublished);
  return template;
}

/** The patient, if the caller may create submissions for them (a scoped read of the patient). */
async function patientInScope(
  db: Knex,
  ctx: AppContext,
  patientId: number,
): Promise<{ id: number; name: string }> {
  const query = db('patients').where('patients.id', patientId).first('patients.id', 'patients.name');
  applyScope(query, scopeOf(ctx, 'read', 'Patient'), { physicianId: 'patients.physician_id' });
  const patient = (await query) as { id: number; name: string } | undefined;
  if (!patient)
    throw badRequest(formsMessages.submissionIncomplete, {
      fields: { patientId: formsMessages.choosePatient },
    });
  return patient;
}

/** Staff fill in a published form for a patient. */
export async function submitAsStaff(
  db: Knex,
  ctx: AppContext,
  templateId: number,
  input: { patientId: number; answers: Record<string, unknown> },
): Promise<FormSubmitted> {
  const template = await publishedTemplate(db, templateId);
  await patientInScope(db, ctx, input.patientId);
  return storeSubmission(db, ctx, template, input.patientId, input.answers, {
    source: 'staff',
    userId: ctx.state.user?.id ?? null,
    linkId: null,
  });
}

interface SubmissionRow {
  id: number;
  template_id: number;
  template_name: string;
  version: number;
  patient_id: number;
  patient_name: string;
  source: 'staff' | 'link';
  submitted_by_name: string | null;
  submitted_at: Date;
  score: number | null;
  max_score: number | null;
  band: string | null;
  answers: Answers;
  definition: FormDefinition;
}

function scopedSubmissions(db: Knex, ctx: AppContext): Knex.QueryBuilder {
  const query = db('form_submissions')
    .join('form_templates', 'form_templates.id', 'form_submissions.template_id')
    .join('patients', 'patients.id', 'form_submissions.patient_id');
  applyScope(query, scopeOf(ctx, 'read', 'FormSubmission'), { physicianId: 'patients.physician_id' });
  return query;
}

function toSummary(row: SubmissionRow): FormSubmissionSummary {
  return {
    id: row.id,
    templateId: row.template_id,
    templateName: row.template_name,
    version: row.version,
    patientId: row.patient_id,
    submittedAt: new Date(row.submitted_at).toISOString(),
    source: row.source,
    score: row.score,
    band: row.band,
    maxScore: row.max_score,
  };
}

/** A patient's submissions, newest first (those the caller may read). */
export async function listSubmissions(
  db: Knex,
  ctx: AppContext,
  patientId: number,
): Promise<FormSubmissionSummary[]> {
  const rows = (await scopedSubmissions(db, ctx)
    .where('form_submissions.patient_id', patientId)
    .select(
      'form_submissions.id',
      'form_submissions.template_id',
      'form_templates.name as template_name',
      'form_submissions.version',
      'form_submissions.patient_id',
      'form_submissions.source',
      'form_submissions.submitted_at',
      'form_submissions.score',
      'form_submissions.max_score',
      'form_submissions.band',
    )
    .orderBy([
      { column: 'form_submissions.submitted_at', order: 'desc' },
      { column: 'form_submissions.id', order: 'desc' },
    ])
    .limit(200)) as SubmissionRow[];
  await audit(db, ctx, {
    action: 'form_submission.list',
    outcome: 'success',
    entityType: 'patient',
    entityId: patientId,
    details: { count: rows.length, ids: rows.map((row) => row.id).join(',') },
  });
  return rows.map(toSummary);
}

/** One submission with its answers and the definition of the version it answered; audited. */
export async function readSubmission(
  db: Knex,
  ctx: AppContext,
  id: number,
  action: 'form_submission.read' | 'form_submission.pdf' = 'form_submission.read',
): Promise<FormSubmissionDetail> {
  const row = (await scopedSubmissions(db, ctx)
    .leftJoin('users', 'users.id', 'form_submissions.submitted_by')
    .where('form_submissions.id', id)
    .first(
      'form_submissions.id',
      'form_submissions.template_id',
      'form_templates.name as template_name',
      'form_templates.definition',
      'form_submissions.version',
      'form_submissions.patient_id',
      'patients.name as patient_name',
      'form_submissions.source',
      'users.username as submitted_by_name',
      'form_submissions.submitted_at',
      'form_submissions.score',
      'form_submissions.max_score',
      'form_submissions.band',
      'form_submissions.answers',
    )) as SubmissionRow | undefined;
  if (!row) {
    await audit(db, ctx, { action, outcome: 'denied', entityType: 'form_submission', entityId: id });
    throw notFound(formsMessages.submissionNotFound);
  }
  await audit(db, ctx, {
    action,
    outcome: 'success',
    entityType: 'form_submission',
    entityId: id,
    details: { patientId: row.patient_id },
  });
  return {
    ...toSummary(row),
    patientName: row.patient_name,
    submittedBy: row.submitted_by_name,
    definition: row.definition,
    answers: row.answers,
  };
}

/** A file attached to a submission the caller may read; audited. */
export async function readSubmissionFile(
  db: Knex,
  ctx: AppContext,
  submissionId: number,
  fileId: string,
): Promise<{ name: string; contentType: string; data: Buffer }> {
  if (!/^[0-9a-f-]{36}$/i.test(fileId)) throw notFound();
  const submission = await scopedSubmissions(db, ctx)
    .where('form_submissions.id', submissionId)
    .first('form_submissions.id');
  const file = submission
    ? ((await db('form_files')
        .where({ id: fileId, submission_id: submissionId })
        .first('name', 'content_type', 'data')) as
        | { name: string; content_type: string; data: Uint8Array }
        | undefined)
    : undefined;
  await audit(db, ctx, {
    action: 'form_submission.file',
    outcome: file ? 'success' : 'denied',
    entityType: 'form_submission',
    entityId: submissionId,
    details: { fileId },
  });
  if (!file) throw notFound();
  return { name: file.name, contentType: file.content_type, data: Buffer.from(file.data) };
}

/** Opens a single-use, expiring link for a patient to fill in a published form. */
export async function createFormLink(
  db: Knex,
  ctx: AppContext,
  templateId: number,
  patientId: number,
): Promise<FormLinkCreated> {
  const template = await publishedTemplate(db, templateId);
  await patientInScope(db, ctx, patientId);
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + FORM_LINK_DAYS * DAY_MS);
  const [row] = await db('form_links')
    .insert({
      template_id: template.id,
      patient_id: patientId,
      token_hash: hashFormToken(token),
      expires_at: expiresAt,
      created_by: ctx.state.user?.id ?? null,
    })
    .returning('id');
  await audit(db, ctx, {
    action: 'form_link.create',
    outcome: 'success',
    entityType: 'form_link',
    entityId: (row as { id: number }).id,
    details: { templateId: template.id, patientId },
  });
  return { formUrl: `/patient-form?token=${token}`, expiresAt: expiresAt.toISOString() };
}

const LINK_PROBLEMS: Record<FormLinkProblem, string> = {
  invalid: formsMessages.linkInvalid,
  expired: formsMessages.linkExpired,
  used: formsMessages.linkUsed,
};

/** 404 for a token that names nothing, 410 for one that did but can no longer be used. */
function linkError(reason: FormLinkProblem): HttpError {
  return new HttpError(reason === 'invalid' ? 404 : 410, LINK_PROBLEMS[reason], { reason });
}

interface LinkRow {
  id: number;
  template_id: number;
  patient_id: number;
  patient_name: string;
  status: 'sent' | 'used';
  expires_at: Date;
}

/** The usable link a token names, or the 404/410 saying why it cannot be used. */
export async function usableLink(
  db: Knex,
  token: string,
  options: { lock?: boolean } = {},
): Promise<LinkRow> {
  const query = db('form_links')
    .join('patients', 'patients.id', 'form_links.patient_id')
    .where('form_links.token_hash', hashFormToken(token))
    .first(
      'form_links.id',
      'form_links.template_id',
      'form_links.patient_id',
      'patients.name as patient_name',
      'form_links.status',
      'form_links.expires_at',
    );
  if (options.lock) query.forUpdate('form_links');
  const row = (await query) as LinkRow | undefined;
  if (!row) throw linkError('invalid');
  if (row.status === 'used') throw linkError('used');
  if (new Date(row.expires_at).getTime() <= Date.now()) throw linkError('expired');
  return row;
}

export async function viewFormLink(db: Knex, ctx: AppContext, token: string): Promise<PublicFormView> {
  const link = await usableLink(db, token);
  const template = await templateRow(db, link.template_id);
  if (template.status !== 'published') throw linkError('expired');
  await audit(db, ctx, {
    action: 'form_link.view',
    outcome: 'success',
    entityType: 'form_link',
    entityId: link.id,
    details: { patientId: link.patient_id },
  });
  return {
    title: template.name,
    definition: template.definition,
    patientFirstName: link.patient_name.trim().split(/\s+/)[0] ?? '',
  };
}

/** A patient submits through their link: once, before it expires. */
export async function submitThroughLink(
  db: Knex,
  ctx: AppContext,
  token: string,
  answers: Record<string, unknown>,
): Promise<{ submitted: true }> {
  const link = await usableLink(db, token, { lock: true });
  const template = await templateRow(db, link.template_id);
  if (template.status !== 'published') throw linkError('expired');
  await storeSubmission(db, ctx, template, link.patient_id, answers, {
    source: 'link',
    userId: null,
    linkId: link.id,
  });
  await db('form_links').where({ id: link.id }).update({ status: 'used', used_at: new Date() });
  // The patient sees neither the score nor anything else of their record.
  return { submitted: true };
}
