import Router from '@koa/router';
import {
  addDays,
  computeSlas,
  LetterheadInput,
  PracticeCalendarInput,
  type ReferralStage,
  type ReferralUrgency,
  type SlaDashboardView,
  SlaDefinitionInput,
  type SlaResult,
  todayInTimeZone,
} from '@wellrest/core';
import type { z } from 'zod';
import { audit } from '../../audit/audit.js';
import { can } from '../../http/can.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { notFound } from '../../http/errors.js';
import { idParam } from '../../http/params.js';
import { inTransaction } from '../../http/transaction.js';
import { validate } from '../../http/validate.js';
import {
  clockContext,
  LETTERHEAD_KEY,
  listDefinitions,
  PRACTICE_CALENDAR_KEY,
  practiceCalendar,
  practiceLetterhead,
  stageTimesOf,
  toDefinition,
} from '../referrals/store.js';
import { putSetting } from '../settings/store.js';

// SLA targets (admin) and the dashboard everyone who works referrals reads: on-time share per
// definition and per physician, what is at risk or breached now, and a 12-week trend.

type Input<T> = AppContext & { state: { input: T } };

function columns(input: SlaDefinitionInput) {
  return {
    name: input.name,
    from_stage: input.fromStage,
    to_stage: input.toStage,
    target_hours: input.targetHours,
    business_hours: input.businessHours,
    urgencies: JSON.stringify(input.urgencies),
    active: input.active,
  };
}

async function getDefinitions(ctx: AppContext): Promise<void> {
  ctx.body = await listDefinitions(dbOf(ctx));
}

async function postDefinition(ctx: Input<SlaDefinitionInput>): Promise<void> {
  const db = dbOf(ctx);
  const [row] = await db('sla_definitions').insert(columns(ctx.state.input)).returning('*');
  await audit(db, ctx, {
    action: 'sla_definition.create',
    outcome: 'success',
    entityType: 'sla_definition',
    entityId: row.id,
  });
  ctx.status = 201;
  ctx.body = toDefinition(row);
}

async function putDefinition(ctx: Input<SlaDefinitionInput>): Promise<void> {
  const db = dbOf(ctx);
  const id = idParam(ctx);
  const [row] = await db('sla_definitions')
    .where({ id })
    .update({ ...columns(ctx.state.input), updated_at: db.fn.now() })
    .returning('*');
  if (!row) throw notFound();
  await audit(db, ctx, {
    action: 'sla_definition.update',
    outcome: 'success',
    entityType: 'sla_definition',
    entityId: id,
  });
  ctx.body = toDefinition(row);
}

async function deleteDefinition(ctx: AppContext): Promise<void> {
  const db = dbOf(ctx);
  const id = idParam(ctx);
  const deleted = await db('sla_definitions').where({ id }).delete();
  if (deleted === 0) throw notFound();
  await audit(db, ctx, {
    action: 'sla_definition.delete',
    outcome: 'success',
    entityType: 'sla_definition',
    entityId: id,
  });
  ctx.status = 204;
}

async function getCalendar(ctx: AppContext): Promise<void> {
  const timeZone = await ctx.services.settings.get('practiceTimeZone', dbOf(ctx));
  ctx.body = await practiceCalendar(dbOf(ctx), timeZone);
}

async function putCalendar(ctx: Input<z.infer<typeof PracticeCalendarInput>>): Promise<void> {
  const db = dbOf(ctx);
  await putSetting(db, PRACTICE_CALENDAR_KEY, ctx.state.input);
  const timeZone = await ctx.services.settings.get('practiceTimeZone', db);
  ctx.body = await practiceCalendar(db, timeZone);
}

async function getLetterhead(ctx: AppContext): Promise<void> {
  ctx.body = await practiceLetterhead(dbOf(ctx));
}

async function putLetterhead(ctx: Input<LetterheadInput>): Promise<void> {
  const db = dbOf(ctx);
  await putSetting(db, LETTERHEAD_KEY, ctx.state.input, ctx.state.user?.id ?? null);
  await audit(db, ctx, {
    action: 'setting.update',
    outcome: 'success',
    entityType: 'setting',
    entityId: LETTERHEAD_KEY,
  });
  ctx.body = await practiceLetterhead(db);
}

function percent(met: number, missed: number): number | null {
  return met + missed === 0 ? null : Math.round((met / (met + missed)) * 1000) / 10;
}

/** Referrals the dashboard reads: the open ones and those of the last 12 weeks. */
const DASHBOARD_WEEKS = 12;

async function getDashboard(ctx: AppContext): Promise<void> {
  const db = dbOf(ctx);
  const timeZone = await ctx.services.settings.get('practiceTimeZone', db);
  const clocks = await clockContext(db, timeZone);
  const today = todayInTimeZone(timeZone, clocks.now);
  // Weeks start on Monday, in the practice's calendar.
  const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7;
  const thisWeek = addDays(today, -weekday);
  const firstWeek = addDays(thisWeek, -7 * (DASHBOARD_WEEKS - 1));
  const rows = (await db('referrals')
    .join('physicians', 'physicians.id', 'referrals.physician_id')
    .leftJoin('patients', 'patients.id', 'referrals.patient_id')
    .where((q) =>
      q
        .whereNotIn('referrals.status', ['reported', 'declined', 'cancelled'])
        .orWhere('referrals.status_changed_at', '>=', firstWeek),
    )
    .select(
      'referrals.id',
      'referrals.urgency',
      'referrals.status',
      'referrals.physician_id',
      'physicians.name as physician_name',
      db.raw("coalesce(patients.name, referrals.submitted_patient->>'name', '') as patient_name"),
    )) as Array<{
    id: number;
    urgency: ReferralUrgency;
    status: ReferralStage | 'declined' | 'cancelled';
    physician_id: number;
    physician_name: string;
    patient_name: string;
  }>;
  const times = await stageTimesOf(
    db,
    rows.map((r) => r.id),
  );
  const perDefinition = new Map(
    clocks.definitions.map((d) => [d.id, { definitionId: d.id, name: d.name, met: 0, missed: 0 }]),
  );
  const perPhysician = new Map<number, { physicianId: number; name: string; met: number; missed: number }>();
  const trend = Array.from({ length: DASHBOARD_WEEKS }, (_, i) => ({
    weekStart: addDays(firstWeek, 7 * i),
    met: 0,
    missed: 0,
  }));
  const atRisk: SlaDashboardView['atRisk'] = [];
  const breached: SlaDashboardView['breached'] = [];
  for (const row of rows) {
    const results = computeSlas(
      clocks.definitions,
      { urgency: row.urgency, status: row.status, stageTimes: times.get(row.id) ?? {} },
      clocks.calendar,
      clocks.now,
    );
    for (const result of results) {
      const entry = {
        referralId: row.id,
        patientName: row.patient_name,
        physicianName: row.physician_name,
        result,
      };
      if (result.state === 'at_risk') atRisk.push(entry);
      if (result.state === 'breached') breached.push(entry);
      if (result.state !== 'met' && result.state !== 'missed') continue;
      const key = result.state === 'met' ? 'met' : 'missed';
      const definition = perDefinition.get(result.definitionId);
      if (definition) definition[key]++;
      const physician = perPhysician.get(row.physician_id) ?? {
        physicianId: row.physician_id,
        name: row.physician_name,
        met: 0,
        missed: 0,
      };
      physician[key]++;
      perPhysician.set(row.physician_id, physician);
      const ended = todayInTimeZone(timeZone, new Date(result.completedAt ?? clocks.now));
      const week = trend.findLast((w) => w.weekStart <= ended);
      if (week && ended >= firstWeek) week[key]++;
    }
  }
  const byDue = (a: { result: SlaResult }, b: { result: SlaResult }) =>
    (a.result.due ?? '').localeCompare(b.result.due ?? '');
  const view: SlaDashboardView = {
    perDefinition: [...perDefinition.values()].map((d) => ({
      ...d,
      onTimePercent: percent(d.met, d.missed),
    })),
    perPhysician: [...perPhysician.values()]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((p) => ({ ...p, onTimePercent: percent(p.met, p.missed) })),
    atRisk: atRisk.sort(byDue),
    breached: breached.sort(byDue),
    trend: trend.map((w) => ({ ...w, onTimePercent: percent(w.met, w.missed) })),
  };
  await audit(db, ctx, {
    action: 'sla.dashboard',
    outcome: 'success',
    entityType: 'referral',
    details: { count: rows.length },
  });
  ctx.body = view;
}

export function slaRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get('/api/sla/definitions', can('read', 'Sla'), getDefinitions);
  router.post(
    '/api/sla/definitions',
    can('create', 'Sla'),
    validate(SlaDefinitionInput),
    inTransaction,
    postDefinition,
  );
  router.put(
    '/api/sla/definitions/:id',
    can('update', 'Sla'),
    validate(SlaDefinitionInput),
    inTransaction,
    putDefinition,
  );
  router.delete('/api/sla/definitions/:id', can('delete', 'Sla'), inTransaction, deleteDefinition);
  router.get('/api/sla/calendar', can('read', 'Sla'), getCalendar);
  router.put(
    '/api/sla/calendar',
    can('update', 'Sla'),
    validate(PracticeCalendarInput),
    inTransaction,
    putCalendar,
  );
  router.get('/api/sla/dashboard', can('read', 'Sla'), getDashboard);
  router.get('/api/sla/letterhead', can('read', 'Sla'), getLetterhead);
  router.put(
    '/api/sla/letterhead',
    can('update', 'Setting'),
    validate(LetterheadInput),
    inTransaction,
    putLetterhead,
  );
  return router;
}
