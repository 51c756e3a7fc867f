import Router from '@koa/router';
import {
  FormLinkInput,
  FormPublicSubmitInput,
  FormSubmitInput,
  FormTemplateSaveInput,
  formsMessages,
} from '@wellrest/core';
import { z } from 'zod';
import { audit } from '../../audit/audit.js';
import { can } from '../../http/can.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { HttpError } from '../../http/errors.js';
import { inTransaction } from '../../http/transaction.js';
import { validate } from '../../http/validate.js';
import { idParam } from '../patients/access.js';
import { embedAccess, type PublicContext, submissionRateLimit } from '../public/guard.js';
import { storeUpload } from './files.js';
import { submissionPdf } from './pdf.js';
import {
  createFormLink,
  listSubmissions,
  readSubmission,
  readSubmissionFile,
  submitAsStaff,
  submitThroughLink,
  usableLink,
  viewFormLink,
} from './submissions.js';
import {
  archiveTemplate,
  createTemplate,
  duplicateTemplate,
  listTemplates,
  publishTemplate,
  readTemplate,
  saveTemplate,
} from './templates.js';

type Input<T> = AppContext & { state: { input: T } };

/** Unclaimed uploads one link may hold at once. */
const LINK_UPLOAD_LIMIT = 10;

function param(ctx: AppContext, name: string): string {
  return (ctx as AppContext & { params?: Record<string, string> }).params?.[name] ?? '';
}

const userIdOf = (ctx: AppContext): number | null => ctx.state.user?.id ?? null;

async function templateEvent(
  ctx: AppContext,
  action: 'form_template.create' | 'form_template.update' | 'form_template.publish' | 'form_template.archive',
  id: number,
  details: Record<string, number | string> = {},
): Promise<void> {
  await audit(dbOf(ctx), ctx, {
    action,
    outcome: 'success',
    entityType: 'form_template',
    entityId: id,
    details,
  });
}

async function getTemplates(ctx: AppContext): Promise<void> {
  ctx.body = await listTemplates(dbOf(ctx));
}

async function getTemplate(ctx: AppContext): Promise<void> {
  ctx.body = await readTemplate(dbOf(ctx), idParam(ctx));
}

async function postTemplate(ctx: Input<FormTemplateSaveInput>): Promise<void> {
  const id = await createTemplate(dbOf(ctx), ctx.state.input, userIdOf(ctx));
  await templateEvent(ctx, 'form_template.create', id);
  ctx.status = 201;
  ctx.body = await readTemplate(dbOf(ctx), id);
}

async function putTemplate(ctx: Input<FormTemplateSaveInput>): Promise<void> {
  const from = idParam(ctx);
  const id = await saveTemplate(dbOf(ctx), from, ctx.state.input, userIdOf(ctx));
  await templateEvent(ctx, 'form_template.update', id, { from });
  ctx.body = await readTemplate(dbOf(ctx), id);
}

async function postPublish(ctx: AppContext): Promise<void> {
  const row = await publishTemplate(dbOf(ctx), idParam(ctx));
  await templateEvent(ctx, 'form_template.publish', row.id, { version: row.version });
  ctx.body = await readTemplate(dbOf(ctx), row.id);
}

async function postDuplicate(ctx: AppContext): Promise<void> {
  const from = idParam(ctx);
  const id = await duplicateTemplate(dbOf(ctx), from, userIdOf(ctx));
  await templateEvent(ctx, 'form_template.create', id, { from });
  ctx.status = 201;
  ctx.body = await readTemplate(dbOf(ctx), id);
}

async function postArchive(ctx: AppContext): Promise<void> {
  const id = idParam(ctx);
  await archiveTemplate(dbOf(ctx), id);
  await templateEvent(ctx, 'form_template.archive', id);
  ctx.body = await readTemplate(dbOf(ctx), id);
}

async function postSubmission(ctx: Input<FormSubmitInput>): Promise<void> {
  ctx.status = 201;
  ctx.body = await submitAsStaff(dbOf(ctx), ctx, idParam(ctx), ctx.state.input);
}

async function postLink(ctx: Input<z.infer<typeof FormLinkInput>>): Promise<void> {
  ctx.status = 201;
  ctx.body = await createFormLink(dbOf(ctx), ctx, idParam(ctx), ctx.state.input.patientId);
}

async function postUpload(ctx: AppContext): Promise<void> {
  const db = dbOf(ctx);
  const file = await storeUpload(db, ctx, { userId: userIdOf(ctx), linkId: null });
  await audit(db, ctx, {
    action: 'form_file.upload',
    outcome: 'success',
    entityType: 'form_file',
    entityId: file.fileId,
    details: { size: file.size, contentType: file.contentType },
  });
  ctx.status = 201;
  ctx.body = file;
}

const SubmissionListQuery = z.object({ patientId: z.coerce.number().int().positive().max(2_147_483_647) });

async function getSubmissions(ctx: Input<z.infer<typeof SubmissionListQuery>>): Promise<void> {
  ctx.body = await listSubmissions(dbOf(ctx), ctx, ctx.state.input.patientId);
}

async function getSubmission(ctx: AppContext): Promise<void> {
  ctx.body = await readSubmission(dbOf(ctx), ctx, idParam(ctx));
}

async function getSubmissionPdf(ctx: AppContext): Promise<void> {
  const submission = await readSubmission(dbOf(ctx), ctx, idParam(ctx), 'form_submission.pdf');
  ctx.type = 'application/pdf';
  // The file name carries the record id only, never the patient's name.
  ctx.attachment(`form-submission-${submission.id}.pdf`);
  ctx.body = Buffer.from(await submissionPdf(submission));
}

async function getSubmissionFile(ctx: AppContext): Promise<void> {
  const file = await readSubmissionFile(dbOf(ctx), ctx, idParam(ctx), param(ctx, 'fileId'));
  ctx.type = file.contentType;
  ctx.attachment(file.name);
  ctx.body = file.data;
}

// Public: a patient's token link.

async function getPublicForm(ctx: PublicContext): Promise<void> {
  ctx.body = await viewFormLink(dbOf(ctx), ctx, param(ctx, 'token'));
}

async function postPublicUpload(ctx: PublicContext): Promise<void> {
  const db = dbOf(ctx);
  const link = await usableLink(db, param(ctx, 'token'));
  const [row] = await db('form_files')
    .where({ link_id: link.id })
    .whereNull('submission_id')
    .count<{ count: string | number }[]>('id as count');
  if (Number(row?.count ?? 0) >= LINK_UPLOAD_LIMIT) throw new HttpError(429, formsMessages.fileInvalid);
  const file = await storeUpload(db, ctx, { userId: null, linkId: link.id });
  await audit(db, ctx, {
    action: 'form_file.upload',
    outcome: 'success',
    entityType: 'form_file',
    entityId: file.fileId,
    details: { linkId: link.id, size: file.size, contentType: file.contentType },
  });
  ctx.status = 201;
  ctx.body = file;
}

async function postPublicSubmit(
  ctx: PublicContext & { state: { input: { answers: Record<string, unknown> } } },
) {
  ctx.status = 201;
  ctx.body = await submitThroughLink(dbOf(ctx), ctx, param(ctx, 'token'), ctx.state.input.answers);
}

export function formRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get('/api/forms/templates', can('read', 'Form'), getTemplates);
  router.post(
    '/api/forms/templates',
    can('create', 'Form'),
    validate(FormTemplateSaveInput),
    inTransaction,
    postTemplate,
  );
  router.get('/api/forms/templates/:id', can('read', 'Form'), getTemplate);
  router.put(
    '/api/forms/templates/:id',
    can('update', 'Form'),
    validate(FormTemplateSaveInput),
    inTransaction,
    putTemplate,
  );
  router.post('/api/forms/templates/:id/publish', can('update', 'Form'), inTransaction, postPublish);
  router.post('/api/forms/templates/:id/duplicate', can('create', 'Form'), inTransaction, postDuplicate);
  router.post('/api/forms/templates/:id/archive', can('update', 'Form'), inTransaction, postArchive);
  router.post(
    '/api/forms/templates/:id/submissions',
    can('create', 'FormSubmission'),
    validate(FormSubmitInput),
    inTransaction,
    postSubmission,
  );
  router.post(
    '/api/forms/templates/:id/links',
    can('create', 'FormSubmission'),
    validate(FormLinkInput),
    inTransaction,
    postLink,
  );
  router.post('/api/forms/uploads', can('create', 'FormSubmission'), postUpload);
  router.get(
    '/api/forms/submissions',
    can('read', 'FormSubmission'),
    validate(SubmissionListQuery, 'query'),
    getSubmissions,
  );
  router.get('/api/forms/submissions/:id', can('read', 'FormSubmission'), getSubmission);
  router.get('/api/forms/submissions/:id/pdf', can('read', 'FormSubmission'), getSubmissionPdf);
  router.get('/api/forms/submissions/:id/files/:fileId', can('read', 'FormSubmission'), getSubmissionFile);
  router.get('/api/public/forms/:token', embedAccess, getPublicForm);
  router.post('/api/public/forms/:token/uploads', embedAccess, submissionRateLimit, postPublicUpload);
  router.post(
    '/api/public/forms/:token/submit',
    embedAccess,
    validate(FormPublicSubmitInput),
    submissionRateLimit,
    inTransaction,
    postPublicSubmit,
  );
  return router;
}
