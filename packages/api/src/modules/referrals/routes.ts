import Router from '@koa/router';
import {
  BulkTransitionInput,
  type CreateReferralInput,
  CreateReferralInput as CreateReferralSchema,
  canTransition,
  clinicalMessages as cm,
  LinkBookingInput,
  LinkReferralPatientInput,
  type PatientMatch,
  type PhysicianDashboardView,
  REFERRAL_ATTACHMENT_MAX_BYTES,
  REFERRAL_ATTACHMENT_TYPES,
  REFERRAL_STAGES,
  ReferralListQuery,
  type ReferralStatus,
  ReferralTransitionInput,
  type ReferralUrgency,
  subject,
  todayInTimeZone,
} from '@wellrest/core';
import { fileTypeFromBuffer } from 'file-type';
import { audit } from '../../audit/audit.js';
import { can } from '../../http/can.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { badRequest, conflict, type HttpError, notFound } from '../../http/errors.js';
import { idParam, uuidParam } from '../../http/params.js';
import { inTransaction } from '../../http/transaction.js';
import { validate } from '../../http/validate.js';
import { writeOutbox } from '../../jobs/outbox.js';
import { abilityOf, scopeOf } from '../patients/access.js';
import { auditDenials, denied } from './access.js';
import {
  clockContext,
  createConsoleReferral,
  findReferral,
  listReferrals,
  type ReferralRow,
  recordTransition,
  referralDetail,
} from './store.js';

// Referrals in the console: list, detail, create, status changes (one or many), the booking made
// for a referral, the patient of a public referral, attachments, and the physician's dashboard.
// A physician sees and creates only their own; anything else answers 404 and is audited.

type Input<T> = AppContext & { state: { input: T } };

async function clocks(ctx: AppContext) {
  const timeZone = await ctx.services.settings.get('practiceTimeZone', dbOf(ctx));
  return clockContext(dbOf(ctx), timeZone);
}

/** The referral named by `:id`, within the caller's scope for `action`. */
async function requireReferral(
  ctx: AppContext,
  action: 'read' | 'update' | 'create',
  options: { lock?: boolean } = {},
): Promise<ReferralRow> {
  const id = idParam(ctx);
  const found = await findReferral(
    dbOf(ctx),
    id,
    scopeOf(ctx, action === 'create' ? 'read' : action, 'Referral'),
    options,
  );
  if (found === 'missing') throw notFound();
  if (found === 'denied')
    throw denied({
      action: 'referral.read',
      entityType: 'referral',
      entityId: id,
      details: { attempted: action },
    });
  return found;
}

async function getReferrals(ctx: Input<ReferralListQuery>): Promise<void> {
  const db = dbOf(ctx);
  const referrals = await listReferrals(
    db,
    scopeOf(ctx, 'read', 'Referral'),
    ctx.state.input,
    await clocks(ctx),
  );
  await audit(db, ctx, {
    action: 'referral.list',
    outcome: 'success',
    entityType: 'referral',
    details: {
      count: referrals.length,
      ...(ctx.state.input.physicianId ? { physicianId: ctx.state.input.physicianId } : {}),
    },
  });
  ctx.body = referrals;
}

async function getReferral(ctx: AppContext): Promise<void> {
  const row = await requireReferral(ctx, 'read');
  const db = dbOf(ctx);
  await audit(db, ctx, {
    action: 'referral.read',
    outcome: 'success',
    entityType: 'referral',
    entityId: row.id,
    details: { patientId: row.patient_id },
  });
  ctx.body = await referralDetail(db, row.id, await clocks(ctx));
}

async function postReferral(ctx: Input<CreateReferralInput>): Promise<void> {
  const db = dbOf(ctx);
  const user = ctx.state.user;
  if (!user) throw notFound();
  const input = ctx.state.input;
  // A physician's referral is always theirs, whatever the body says.
  const physicianId = user.role === 'physician' ? user.physicianId : input.physicianId;
  if (typeof physicianId !== 'number')
    throw badRequest(cm.physicianRequired, { fields: { physicianId: cm.physicianRequired } });
  if (!abilityOf(ctx).can('create', subject('Referral', { physicianId }))) throw notFound();
  const physician = await db('physicians').where({ id: physicianId }).first('id');
  if (!physician) throw badRequest(cm.physicianRequired, { fields: { physicianId: cm.physicianRequired } });
  if (input.patientId !== undefined) {
    // An existing patient: only one the caller may see (a physician: their own patients).
    const patient = await db('patients').where({ id: input.patientId }).first('id', 'physician_id');
    const allowed =
      patient &&
      abilityOf(ctx).can('read', subject('Patient', { physicianId: patient.physician_id as number | null }));
    if (!allowed) throw badRequest(cm.patientRequired, { fields: { patientId: cm.patientRequired } });
  }
  const id = await createConsoleReferral(db, { ...input, physicianId }, user.id);
  await audit(db, ctx, {
    action: 'referral.create',
    outcome: 'success',
    entityType: 'referral',
    entityId: id,
    details: { physicianId, newPatient: input.newPatient !== undefined },
  });
  ctx.status = 201;
  ctx.body = await referralDetail(db, id, await clocks(ctx));
}

async function applyTransition(
  ctx: AppContext,
  row: ReferralRow,
  to: ReferralStatus,
  note: string,
): Promise<void> {
  if (!canTransition(row.status, to, 'manual')) throw conflict(cm.transitionRefused(row.status, to));
  const db = dbOf(ctx);
  await recordTransition(db, row, to, 'manual', ctx.state.user?.id ?? null, note);
  await audit(db, ctx, {
    action: 'referral.status_change',
    outcome: 'success',
    entityType: 'referral',
    entityId: row.id,
    details: { from: row.status, to },
  });
}

async function postStatus(ctx: Input<ReferralTransitionInput>): Promise<void> {
  const row = await requireReferral(ctx, 'update', { lock: true });
  await applyTransition(ctx, row, ctx.state.input.status, ctx.state.input.note);
  ctx.body = await referralDetail(dbOf(ctx), row.id, await clocks(ctx));
}

async function postBulkStatus(ctx: Input<BulkTransitionInput>): Promise<void> {
  const db = dbOf(ctx);
  const { ids, status, note } = ctx.state.input;
  const updated: number[] = [];
  const refused: number[] = [];
  for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
    const found = await findReferral(db, id, scopeOf(ctx, 'update', 'Referral'), { lock: true });
    if (typeof found === 'string' || !canTransition(found.status, status, 'manual')) {
      refused.push(id);
      continue;
    }
    await applyTransition(ctx, found, status, note);
    updated.push(id);
  }
  ctx.body = { updated, refused };
}

async function postBooking(ctx: Input<LinkBookingInput>): Promise<void> {
  const row = await requireReferral(ctx, 'update', { lock: true });
  const db = dbOf(ctx);
  const booking = await db('bookings')
    .where({ id: ctx.state.input.bookingId })
    .first('id', 'patient_id', 'status');
  if (!booking || row.patient_id === null || booking.patient_id !== row.patient_id)
    throw badRequest(cm.bookingNotForPatient, { fields: { bookingId: cm.bookingNotForPatient } });
  if (!canTransition(row.status, 'scheduled', 'booking'))
    throw conflict(cm.transitionRefused(row.status, 'scheduled'));
  await recordTransition(db, row, 'scheduled', 'booking', ctx.state.user?.id ?? null, '', {
    booking_id: booking.id,
  });
  // A kit that already came back completes the test at once.
  if (booking.status === 'completed') {
    await recordTransition(db, { id: row.id, status: 'scheduled' }, 'tested', 'booking_completed', null);
  }
  await audit(db, ctx, {
    action: 'referral.link_booking',
    outcome: 'success',
    entityType: 'referral',
    entityId: row.id,
    details: { bookingId: booking.id },
  });
  ctx.body = await referralDetail(db, row.id, await clocks(ctx));
}

async function getPatientMatches(ctx: AppContext): Promise<void> {
  const row = await requireReferral(ctx, 'update');
  const db = dbOf(ctx);
  const submitted = row.submitted_patient;
  let matches: PatientMatch[] = [];
  if (submitted) {
    const rows = await db('patients')
      .where((q) => {
        q.whereRaw('lower(trim(name)) = lower(trim(?))', [submitted.name]);
        if (submitted.email) q.orWhereRaw('lower(email) = lower(?)', [submitted.email]);
        q.orWhere('phone', submitted.phone);
      })
      .orderBy('id')
      .limit(10)
      .select('id', 'name', 'email', 'phone', 'date_of_birth');
    matches = rows.map(
      (p: { id: number; name: string; email: string; phone: string; date_of_birth: string | null }) => ({
        id: p.id,
        name: p.name,
        email: p.email,
        phone: p.phone,
        dateOfBirth: p.date_of_birth,
      }),
    );
  }
  await audit(db, ctx, {
    action: 'referral.patient_matches',
    outcome: 'success',
    entityType: 'referral',
    entityId: row.id,
    details: { count: matches.length },
  });
  ctx.body = matches;
}

async function postPatient(ctx: Input<LinkReferralPatientInput>): Promise<void> {
  const row = await requireReferral(ctx, 'update', { lock: true });
  const db = dbOf(ctx);
  if (row.patient_id !== null) throw conflict(cm.patientLinked);
  const input = ctx.state.input;
  let patientId: number;
  if ('patientId' in input) {
    const patient = await db('patients').where({ id: input.patientId }).first('id');
    if (!patient) throw badRequest(cm.patientRequired, { fields: { patientId: cm.patientRequired } });
    patientId = patient.id;
  } else {
    const submitted = row.submitted_patient;
    if (!submitted) throw badRequest(cm.patientRequired, { fields: { patientId: cm.patientRequired } });
    const [created] = await db('patients')
      .insert({
        name: submitted.name,
        email: submitted.email ?? '',
        phone: submitted.phone,
        date_of_birth: submitted.dateOfBirth || null,
        lead_source: 'Referral',
        physician_id: row.physician_id,
        created_by: ctx.state.user?.id ?? null,
      })
      .returning('id');
    patientId = (created as { id: number }).id;
    await writeOutbox(db, 'patient.created', { patientId });
  }
  await db('referrals').where({ id: row.id }).update({ patient_id: patientId });
  await audit(db, ctx, {
    action: 'referral.link_patient',
    outcome: 'success',
    entityType: 'referral',
    entityId: row.id,
    details: { patientId, created: !('patientId' in input) },
  });
  ctx.body = await referralDetail(db, row.id, await clocks(ctx));
}

function attachmentProblem(message: string): HttpError {
  return badRequest(message, { fields: { file: message } });
}

/** Reads the raw body, refusing it once it passes the limit (nothing is stored). */
async function readUpload(ctx: AppContext): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || Number.NaN);
  if (Number.isFinite(declared) && declared > REFERRAL_ATTACHMENT_MAX_BYTES)
    throw attachmentProblem(cm.attachmentTooLarge);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > REFERRAL_ATTACHMENT_MAX_BYTES) throw attachmentProblem(cm.attachmentTooLarge);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function uploadName(ctx: AppContext): string {
  let name = '';
  try {
    name = decodeURIComponent(ctx.get('x-file-name'));
  } catch {
    name = '';
  }
  const clean = name
    .split(/[\\/]/)
    .pop()
    ?.replace(/[\p{Cc}]/gu, '')
    .trim()
    .slice(0, 255);
  return clean || 'attachment';
}

/** The content type of an attachment, recognised by its content (never its name or declared type). */
export async function attachmentType(data: Buffer): Promise<string | null> {
  if (data.length === 0) return null;
  const detected = await fileTypeFromBuffer(data);
  const mime = detected?.mime;
  return mime && (REFERRAL_ATTACHMENT_TYPES as readonly string[]).includes(mime) ? mime : null;
}

async function postAttachment(ctx: AppContext): Promise<void> {
  // Staff add to any referral; a physician to their own (the read scope is theirs).
  const row = await requireReferral(ctx, 'read');
  const data = await readUpload(ctx);
  if (data.length === 0) throw attachmentProblem(cm.attachmentEmpty);
  const contentType = await attachmentType(data);
  if (!contentType) throw attachmentProblem(cm.attachmentType);
  const db = dbOf(ctx);
  const [created] = await db('referral_attachments')
    .insert({
      id: db.raw('gen_random_uuid()'),
      referral_id: row.id,
      filename: uploadName(ctx),
      content_type: contentType,
      size: data.length,
      data,
      uploaded_by: ctx.state.user?.id ?? null,
    })
    .returning(['id', 'filename', 'content_type', 'size', 'created_at']);
  await audit(db, ctx, {
    action: 'referral.attachment_upload',
    outcome: 'success',
    entityType: 'referral',
    entityId: row.id,
    details: { size: data.length, contentType },
  });
  ctx.status = 201;
  ctx.body = {
    id: created.id,
    filename: created.filename,
    contentType: created.content_type,
    size: created.size,
    createdAt: new Date(created.created_at).toISOString(),
  };
}

async function getAttachment(ctx: AppContext): Promise<void> {
  const row = await requireReferral(ctx, 'read');
  const attachmentId = uuidParam(ctx, 'attachmentId');
  const db = dbOf(ctx);
  const file = await db('referral_attachments').where({ id: attachmentId, referral_id: row.id }).first();
  if (!file) throw notFound();
  await audit(db, ctx, {
    action: 'referral.attachment_read',
    outcome: 'success',
    entityType: 'referral',
    entityId: row.id,
    details: { attachmentId },
  });
  ctx.set('Content-Type', file.content_type);
  ctx.set('Content-Disposition', `inline; filename="attachment-${row.id}"`);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = Buffer.from(file.data);
}

async function getReport(ctx: AppContext): Promise<void> {
  const row = await requireReferral(ctx, 'read');
  const db = dbOf(ctx);
  const interpretation = await db('interpretations').where({ referral_id: row.id }).first('report_pdf');
  if (!interpretation?.report_pdf) throw notFound(cm.notSigned);
  await audit(db, ctx, {
    action: 'report.download',
    outcome: 'success',
    entityType: 'referral',
    entityId: row.id,
    details: { patientId: row.patient_id },
  });
  ctx.set('Content-Type', 'application/pdf');
  ctx.set('Content-Disposition', `attachment; filename="sleep-study-report-${row.id}.pdf"`);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = Buffer.from(interpretation.report_pdf);
}

async function getPhysicianDashboard(ctx: AppContext): Promise<void> {
  const db = dbOf(ctx);
  const user = ctx.state.user;
  const physicianId = user?.role === 'physician' ? user.physicianId : null;
  const physician =
    typeof physicianId === 'number' ? await db('physicians').where({ id: physicianId }).first('name') : null;
  const referrals = await listReferrals(db, scopeOf(ctx, 'read', 'Referral'), {}, await clocks(ctx));
  const active = referrals.filter((r) => (REFERRAL_STAGES as readonly string[]).includes(r.status));
  const bookingIds = referrals
    .filter((r) => r.bookingId !== null && r.status === 'scheduled')
    .map((r) => r.bookingId as number);
  const timeZone = await ctx.services.settings.get('practiceTimeZone', db);
  const today = todayInTimeZone(timeZone);
  const bookings =
    bookingIds.length === 0
      ? []
      : await db('bookings').whereIn('id', bookingIds).where('start_date', '>=', today).orderBy('start_date');
  const byBooking = new Map(referrals.map((r) => [r.bookingId, r]));
  // Tests assigned to this user to read (by number only: the patient may be another physician's).
  const toRead = (await db('interpretations')
    .join('referrals', 'referrals.id', 'interpretations.referral_id')
    .where('interpretations.reader_user_id', user?.id ?? 0)
    .whereNull('interpretations.signed_at')
    .where('referrals.status', 'tested')
    .orderBy('referrals.status_changed_at')
    .select('referrals.id', 'referrals.urgency', 'referrals.status_changed_at')) as Array<{
    id: number;
    urgency: ReferralUrgency;
    status_changed_at: Date;
  }>;
  const view: PhysicianDashboardView = {
    linked: user?.role !== 'physician' || typeof physicianId === 'number',
    physicianName: physician?.name ?? null,
    byStage: REFERRAL_STAGES.map((status) => ({
      status,
      referrals: active.filter((r) => r.status === status),
    })),
    reportsReady: referrals.filter((r) => r.reportReady),
    toRead: toRead.map((t) => ({
      referralId: t.id,
      urgency: t.urgency,
      testedAt: new Date(t.status_changed_at).toISOString(),
    })),
    upcomingTests: bookings.map(
      (b: {
        id: number;
        start_date: string;
        kit_type: PhysicianDashboardView['upcomingTests'][number]['kitType'];
        test_type: PhysicianDashboardView['upcomingTests'][number]['testType'];
      }) => ({
        referralId: byBooking.get(b.id)?.id ?? 0,
        patientName: byBooking.get(b.id)?.patientName ?? '',
        startDate: b.start_date,
        kitType: b.kit_type,
        testType: b.test_type,
      }),
    ),
  };
  await audit(db, ctx, {
    action: 'referral.list',
    outcome: 'success',
    entityType: 'referral',
    details: { count: referrals.length, view: 'physician_dashboard' },
  });
  ctx.body = view;
}

export function referralRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get('/api/referrals', can('read', 'Referral'), validate(ReferralListQuery, 'query'), getReferrals);
  router.post(
    '/api/referrals',
    can('create', 'Referral'),
    validate(CreateReferralSchema),
    inTransaction,
    postReferral,
  );
  router.post(
    '/api/referrals/bulk-status',
    can('update', 'Referral'),
    validate(BulkTransitionInput),
    inTransaction,
    postBulkStatus,
  );
  router.get('/api/physician-dashboard', can('read', 'Referral'), getPhysicianDashboard);
  router.get('/api/referrals/:id', can('read', 'Referral'), auditDenials, getReferral);
  router.post(
    '/api/referrals/:id/status',
    can('update', 'Referral'),
    validate(ReferralTransitionInput),
    auditDenials,
    inTransaction,
    postStatus,
  );
  router.post(
    '/api/referrals/:id/booking',
    can('update', 'Referral'),
    validate(LinkBookingInput),
    auditDenials,
    inTransaction,
    postBooking,
  );
  router.get(
    '/api/referrals/:id/patient-matches',
    can('update', 'Referral'),
    auditDenials,
    getPatientMatches,
  );
  router.post(
    '/api/referrals/:id/patient',
    can('update', 'Referral'),
    validate(LinkReferralPatientInput),
    auditDenials,
    inTransaction,
    postPatient,
  );
  router.post('/api/referrals/:id/attachments', can('create', 'Referral'), auditDenials, postAttachment);
  router.get(
    '/api/referrals/:id/attachments/:attachmentId',
    can('read', 'Referral'),
    auditDenials,
    getAttachment,
  );
  router.get('/api/referrals/:id/report.pdf', can('read', 'Referral'), auditDenials, getReport);
  return router;
}
