import Router from '@koa/router';
import {
  AddendumInput,
  AssignReaderInput,
  canTransition,
  clinicalMessages as cm,
  InterpretationDraftInput,
  InterpretationFinal,
  type MedicalDirectorDashboard,
  type ReaderWorkload,
  type ReferralUrgency,
  SignInterpretationInput,
  severityOf,
  type TestAssignment,
} from '@wellrest/core';
import type { Knex } from 'knex';
import { ZodError } from 'zod';
import { audit } from '../../audit/audit.js';
import { can } from '../../http/can.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { idParam } from '../../http/params.js';
import { inTransaction } from '../../http/transaction.js';
import { validate } from '../../http/validate.js';
import { writeOutbox } from '../../jobs/outbox.js';
import { verifyPassword } from '../auth/passwords.js';
import { consumeSecondFactor, totpKey } from '../auth/two-factor.js';
import { notify } from '../notifications/store.js';
import { scopeOf, withinScope } from '../patients/access.js';
import { auditDenials, denied } from '../referrals/access.js';
import {
  clockContext,
  printedLetterhead,
  type ReferralRow,
  recordTransition,
  referralDetail,
} from '../referrals/store.js';
import { findUserById } from '../users/store.js';
import { reportPdf } from './report.js';

// Reading completed tests: the medical director's queue and readers' workload, assigning a
// reader, the reader's draft, signing (password or authentication code), the report PDF and
// addenda. A signed interpretation never changes (the database refuses it too).

type Input<T> = AppContext & { state: { input: T } };

const URGENCY_ORDER: Record<ReferralUrgency, number> = { stat: 0, urgent: 1, routine: 2 };
const READER_ROLES = ['physician', 'medical_director'] as const;

interface InterpretationRow {
  id: number;
  referral_id: number;
  reader_user_id: number | null;
  ahi: string | null;
  odi: string | null;
  lowest_spo2: string | null;
  recording_minutes: string | null;
  impression: string;
  recommendation: string;
  signed_at: Date | null;
}

async function clocks(ctx: AppContext) {
  const timeZone = await ctx.services.settings.get('practiceTimeZone', dbOf(ctx));
  return clockContext(dbOf(ctx), timeZone);
}

/** The referral of `:id` and its interpretation, if the caller may `action` it (MD: all; a reader: theirs). */
async function requireTest(
  ctx: AppContext,
  action: 'read' | 'update' | 'sign',
  options: { lock?: boolean } = {},
): Promise<{ referral: ReferralRow; interpretation: InterpretationRow | undefined }> {
  const db = dbOf(ctx);
  const id = idParam(ctx);
  const query = db('referrals').where({ id });
  if (options.lock) query.forUpdate();
  const referral = (await query.first()) as ReferralRow | undefined;
  if (!referral) throw notFound();
  const interpretation = (await db('interpretations').where({ referral_id: id }).first()) as
    | InterpretationRow
    | undefined;
  if (
    !withinScope(scopeOf(ctx, action, 'Interpretation'), {
      readerUserId: interpretation?.reader_user_id ?? null,
    })
  )
    throw denied({
      action: 'interpretation.read',
      entityType: 'referral',
      entityId: id,
      details: { attempted: action },
    });
  return { referral, interpretation };
}

async function readers(db: Knex): Promise<TestAssignment['readers']> {
  const rows = await db('users')
    .whereIn('role', [...READER_ROLES])
    .where({ is_active: true })
    .orderBy('display_name')
    .select('id', 'display_name', 'role');
  return rows.map((r: { id: number; display_name: string; role: string }) => ({
    userId: r.id,
    name: r.display_name,
    role: r.role,
  }));
}

async function getDashboard(ctx: AppContext): Promise<void> {
  const db = dbOf(ctx);
  const rows = await db('referrals')
    .join('physicians', 'physicians.id', 'referrals.physician_id')
    .leftJoin('patients', 'patients.id', 'referrals.patient_id')
    .leftJoin('bookings', 'bookings.id', 'referrals.booking_id')
    .leftJoin('interpretations', 'interpretations.referral_id', 'referrals.id')
    .leftJoin('users as reader', 'reader.id', 'interpretations.reader_user_id')
    .where('referrals.status', 'tested')
    .select(
      'referrals.id',
      'referrals.urgency',
      'referrals.status',
      'referrals.status_changed_at',
      'patients.name as patient_name',
      'physicians.name as physician_name',
      'bookings.kit_type',
      'bookings.test_type',
      'interpretations.reader_user_id',
      'reader.display_name as reader_name',
    );
  const awaiting: MedicalDirectorDashboard['awaiting'] = rows
    .map((r: Record<string, unknown>) => ({
      referralId: r.id as number,
      urgency: r.urgency as ReferralUrgency,
      patientName: (r.patient_name as string | null) ?? '',
      physicianName: r.physician_name as string,
      testedAt: r.status_changed_at ? new Date(r.status_changed_at as string).toISOString() : null,
      kitType: (r.kit_type as MedicalDirectorDashboard['awaiting'][number]['kitType']) ?? null,
      testType: (r.test_type as MedicalDirectorDashboard['awaiting'][number]['testType']) ?? null,
      readerUserId: (r.reader_user_id as number | null) ?? null,
      readerName: (r.reader_name as string | null) ?? null,
      status: r.status as MedicalDirectorDashboard['awaiting'][number]['status'],
    }))
    .sort(
      (a, b) =>
        URGENCY_ORDER[a.urgency] - URGENCY_ORDER[b.urgency] ||
        (a.testedAt ?? '').localeCompare(b.testedAt ?? '') ||
        a.referralId - b.referralId,
    );
  const workload = await db('users')
    .leftJoin('interpretations', 'interpretations.reader_user_id', 'users.id')
    .whereIn('users.role', [...READER_ROLES])
    .where('users.is_active', true)
    .groupBy('users.id', 'users.display_name', 'users.role')
    .orderBy('users.display_name')
    .select(
      'users.id',
      'users.display_name',
      'users.role',
      db.raw('count(interpretations.id) filter (where interpretations.signed_at is null)::int as open'),
      db.raw('count(interpretations.signed_at)::int as signed'),
      db.raw(
        'percentile_cont(0.5) within group (order by extract(epoch from (interpretations.signed_at - interpretations.assigned_at)) / 3600) filter (where interpretations.signed_at is not null) as median_hours',
      ),
    );
  const readersView: ReaderWorkload[] = workload.map((r: Record<string, unknown>) => ({
    userId: r.id as number,
    name: r.display_name as string,
    role: r.role as string,
    open: r.open as number,
    signed: r.signed as number,
    medianTurnaroundHours: r.median_hours == null ? null : Math.round(Number(r.median_hours) * 10) / 10,
  }));
  await audit(db, ctx, {
    action: 'interpretation.list',
    outcome: 'success',
    entityType: 'referral',
    details: { count: awaiting.length },
  });
  ctx.body = { awaiting, readers: readersView } satisfies MedicalDirectorDashboard;
}

async function getAssignment(ctx: AppContext): Promise<void> {
  const { referral } = await requireTest(ctx, 'read');
  const db = dbOf(ctx);
  const ability = ctx.state.ability;
  const interpretation = await db('interpretations')
    .where({ referral_id: referral.id })
    .first('reader_user_id');
  await audit(db, ctx, {
    action: 'interpretation.read',
    outcome: 'success',
    entityType: 'referral',
    entityId: referral.id,
    details: { patientId: referral.patient_id },
  });
  ctx.body = {
    referral: await referralDetail(db, referral.id, await clocks(ctx)),
    readers: await readers(db),
    canAssign: ability?.can('assign', 'Interpretation') === true,
    canSign: interpretation?.reader_user_id === ctx.state.user?.id,
  } satisfies TestAssignment;
}

async function postAssign(ctx: Input<AssignReaderInput>): Promise<void> {
  const db = dbOf(ctx);
  const id = idParam(ctx);
  const referral = (await db('referrals').where({ id }).forUpdate().first()) as ReferralRow | undefined;
  if (!referral) throw notFound();
  if (referral.status !== 'tested') throw conflict(cm.notTested);
  const reader = await findUserById(db, ctx.state.input.readerUserId);
  if (!reader?.is_active || !(READER_ROLES as readonly string[]).includes(reader.role))
    throw badRequest(cm.readerInvalid, { fields: { readerUserId: cm.readerInvalid } });
  const existing = (await db('interpretations').where({ referral_id: id }).first()) as
    | InterpretationRow
    | undefined;
  if (existing?.signed_at) throw conflict(cm.alreadySigned);
  const values = {
    reader_user_id: reader.id,
    assigned_by: ctx.state.user?.id ?? null,
    assigned_at: db.fn.now(),
  };
  if (existing)
    await db('interpretations')
      .where({ id: existing.id })
      .update({ ...values, updated_at: db.fn.now() });
  else await db('interpretations').insert({ referral_id: id, ...values });
  await audit(db, ctx, {
    action: 'interpretation.assign',
    outcome: 'success',
    entityType: 'referral',
    entityId: id,
    details: { readerUserId: reader.id, reassigned: existing?.reader_user_id != null },
  });
  ctx.body = await referralDetail(db, id, await clocks(ctx));
}

function draftColumns(input: Partial<InterpretationDraftInput>): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  if (input.ahi !== undefined) columns.ahi = input.ahi;
  if (input.odi !== undefined) columns.odi = input.odi;
  if (input.lowestSpo2 !== undefined) columns.lowest_spo2 = input.lowestSpo2;
  if (input.recordingMinutes !== undefined) columns.recording_minutes = input.recordingMinutes;
  if (input.impression) columns.impression = input.impression;
  if (input.recommendation) columns.recommendation = input.recommendation;
  if (input.ahi !== undefined) columns.severity = input.ahi === null ? null : severityOf(input.ahi);
  return columns;
}

async function putDraft(ctx: Input<InterpretationDraftInput>): Promise<void> {
  const { referral, interpretation } = await requireTest(ctx, 'update', { lock: true });
  if (!interpretation || interpretation.reader_user_id !== ctx.state.user?.id)
    throw conflict(cm.notAssignedReader);
  if (interpretation.signed_at) throw conflict(cm.alreadySigned);
  const db = dbOf(ctx);
  await db('interpretations')
    .where({ id: interpretation.id })
    .update({ ...draftColumns(ctx.state.input), updated_at: db.fn.now() });
  await audit(db, ctx, {
    action: 'interpretation.update',
    outcome: 'success',
    entityType: 'referral',
    entityId: referral.id,
  });
  ctx.body = await referralDetail(db, referral.id, await clocks(ctx));
}

/** Renders the report of a signed interpretation and stores it. */
async function storeReport(db: Knex, referralId: number): Promise<void> {
  const detail = await referralDetail(db, referralId, await clockContext(db, 'UTC'));
  const interpretation = detail.interpretation;
  if (!interpretation?.signedAt) return;
  const pdf = await reportPdf(detail, await printedLetterhead(db), {
    name: interpretation.signedByName ?? '',
    signedAt: interpretation.signedAt,
  });
  await db('interpretations')
    .where({ id: interpretation.id })
    .update({ report_pdf: Buffer.from(pdf), report_generated_at: db.fn.now() });
}

async function postSign(ctx: Input<SignInterpretationInput>): Promise<void> {
  const knex = ctx.services.db.knex;
  const { referral, interpretation } = await requireTest(ctx, 'sign');
  const user = ctx.state.user;
  if (!user || !interpretation || interpretation.reader_user_id !== user.id)
    throw conflict(cm.notAssignedReader);
  if (interpretation.signed_at) throw conflict(cm.alreadySigned);
  if (!canTransition(referral.status, 'interpreted', 'sign')) throw conflict(cm.notTested);
  const { credential, ...values } = ctx.state.input;
  // Everything must be there before the credential is checked (and a code used up).
  const merged = {
    ahi: values.ahi ?? (interpretation.ahi === null ? undefined : Number(interpretation.ahi)),
    odi: values.odi ?? (interpretation.odi === null ? undefined : Number(interpretation.odi)),
    lowestSpo2:
      values.lowestSpo2 ??
      (interpretation.lowest_spo2 === null ? undefined : Number(interpretation.lowest_spo2)),
    recordingMinutes:
      values.recordingMinutes ??
      (interpretation.recording_minutes === null ? undefined : Number(interpretation.recording_minutes)),
    impression: values.impression || interpretation.impression,
    recommendation: values.recommendation || interpretation.recommendation,
  };
  const final = InterpretationFinal.safeParse(merged);
  if (!final.success) throw new ZodError(final.error.issues);
  const account = await findUserById(knex, user.id);
  const trimmed = credential.trim();
  const ok =
    account !== undefined &&
    ((account.totp_enabled &&
      /^\d{6}$/.test(trimmed) &&
      (await consumeSecondFactor(knex, account, trimmed, totpKey(ctx.services.config.secret))) !== null) ||
      (await verifyPassword(account.password_hash, credential)));
  if (!ok) {
    await audit(knex, ctx, {
      action: 'interpretation.sign',
      outcome: 'failure',
      entityType: 'referral',
      entityId: referral.id,
      details: { reason: 'credential' },
    });
    throw badRequest(cm.signRefused, { fields: { credential: cm.signRefused } });
  }
  await knex.transaction(async (trx) => {
    const locked = await trx('interpretations')
      .where({ id: interpretation.id })
      .forUpdate()
      .first('signed_at');
    if (locked?.signed_at) throw conflict(cm.alreadySigned);
    const current = await trx('referrals').where({ id: referral.id }).forUpdate().first('status');
    if (current?.status !== 'tested') throw conflict(cm.notTested);
    await trx('interpretations')
      .where({ id: interpretation.id })
      .update({
        ...draftColumns(final.data),
        signed_at: trx.fn.now(),
        signed_by: user.id,
        updated_at: trx.fn.now(),
      });
    await recordTransition(trx, { id: referral.id, status: 'tested' }, 'interpreted', 'sign', user.id);
    await storeReport(trx, referral.id);
    await recordTransition(trx, { id: referral.id, status: 'interpreted' }, 'reported', 'report', user.id);
    // The referring physician hears of it: in the app (by referral number) and as a `report.ready` event.
    const physicianUsers = await trx('users')
      .where({ physician_id: referral.physician_id, is_active: true })
      .select('id');
    for (const { id: userId } of physicianUsers as Array<{ id: number }>) {
      await notify(trx, {
        userId,
        kind: 'report.ready',
        title: cm.reportReadyTitle,
        body: cm.testToRead(referral.id),
        link: `/referrals?referral=${referral.id}`,
      });
    }
    await writeOutbox(trx, 'report.ready', { referralId: referral.id });
    await audit(trx, ctx, {
      action: 'interpretation.sign',
      outcome: 'success',
      entityType: 'referral',
      entityId: referral.id,
      details: { severity: severityOf(final.data.ahi) },
    });
  });
  ctx.body = await referralDetail(knex, referral.id, await clocks(ctx));
}

async function postAddendum(ctx: Input<AddendumInput>): Promise<void> {
  const { referral, interpretation } = await requireTest(ctx, 'sign', { lock: true });
  if (!interpretation?.signed_at) throw conflict(cm.notSigned);
  if (
    interpretation.reader_user_id !== ctx.state.user?.id &&
    ctx.state.ability?.can('assign', 'Interpretation') !== true
  )
    throw conflict(cm.notAssignedReader);
  const db = dbOf(ctx);
  await db('interpretation_addenda').insert({
    interpretation_id: interpretation.id,
    text: ctx.state.input.text,
    author_user_id: ctx.state.user?.id ?? null,
  });
  await storeReport(db, referral.id);
  await audit(db, ctx, {
    action: 'interpretation.addendum',
    outcome: 'success',
    entityType: 'referral',
    entityId: referral.id,
  });
  ctx.status = 201;
  ctx.body = await referralDetail(db, referral.id, await clocks(ctx));
}

async function getReport(ctx: AppContext): Promise<void> {
  const { referral } = await requireTest(ctx, 'read');
  const db = dbOf(ctx);
  const row = await db('interpretations').where({ referral_id: referral.id }).first('report_pdf');
  if (!row?.report_pdf) throw notFound(cm.notSigned);
  await audit(db, ctx, {
    action: 'report.download',
    outcome: 'success',
    entityType: 'referral',
    entityId: referral.id,
    details: { patientId: referral.patient_id },
  });
  ctx.set('Content-Type', 'application/pdf');
  ctx.set('Content-Disposition', `inline; filename="sleep-study-report-${referral.id}.pdf"`);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = Buffer.from(row.report_pdf);
}

export function interpretationRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get('/api/medical-director/dashboard', can('assign', 'Interpretation'), getDashboard);
  router.get('/api/interpretations/:id', can('read', 'Interpretation'), auditDenials, getAssignment);
  router.post(
    '/api/interpretations/:id/assign',
    can('assign', 'Interpretation'),
    validate(AssignReaderInput),
    inTransaction,
    postAssign,
  );
  router.put(
    '/api/interpretations/:id',
    can('update', 'Interpretation'),
    validate(InterpretationDraftInput),
    auditDenials,
    inTransaction,
    putDraft,
  );
  router.post(
    '/api/interpretations/:id/sign',
    can('sign', 'Interpretation'),
    validate(SignInterpretationInput),
    auditDenials,
    postSign,
  );
  router.post(
    '/api/interpretations/:id/addenda',
    can('sign', 'Interpretation'),
    validate(AddendumInput),
    auditDenials,
    inTransaction,
    postAddendum,
  );
  router.get('/api/interpretations/:id/report.pdf', can('read', 'Interpretation'), auditDenials, getReport);
  return router;
}
