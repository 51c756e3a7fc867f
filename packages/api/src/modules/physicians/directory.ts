import Router from '@koa/router';
import {
  clinicalMessages as cm,
  isValidNpi,
  LinkPhysicianInput,
  NpiCheckQuery,
  PhysicianInput,
  PhysicianListQuery,
  type PhysicianSummary,
  UpdatePhysicianInput,
} from '@wellrest/core';
import type { z } from 'zod';
import { audit } from '../../audit/audit.js';
import { can } from '../../http/can.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { idParam } from '../../http/params.js';
import { inTransaction } from '../../http/transaction.js';
import { validate } from '../../http/validate.js';
import { scopeOf, withinScope } from '../patients/access.js';
import { auditDenials, denied } from '../referrals/access.js';
import { insertPhysician, listPhysicians, physicianDetail, updatePhysician } from './store.js';

// The physician directory (/physicians): list, CSV export, register with a live NPI check, the
// profile, approving or rejecting pending sign-ups; and the administrator's link between a
// physician user and the physician record they are.

type Input<T> = AppContext & { state: { input: T } };

/** The physician named by `:id` if the caller may `action` it; another's answers 404 (audited). */
async function requirePhysician(ctx: AppContext, action: 'read' | 'update'): Promise<number> {
  const id = idParam(ctx);
  const exists = await dbOf(ctx)('physicians').where({ id }).first('id');
  if (!exists) throw notFound();
  if (!withinScope(scopeOf(ctx, action, 'Physician'), { id }))
    throw denied({
      action: 'physician.read',
      entityType: 'physician',
      entityId: id,
      details: { attempted: action },
    });
  return id;
}

async function getPhysicians(ctx: Input<PhysicianListQuery>): Promise<void> {
  const db = dbOf(ctx);
  const physicians = await listPhysicians(db, scopeOf(ctx, 'read', 'Physician'), ctx.state.input);
  await audit(db, ctx, {
    action: 'physician.list',
    outcome: 'success',
    entityType: 'physician',
    details: { count: physicians.length },
  });
  ctx.body = physicians;
}

const CSV_COLUMNS: Array<[string, (p: PhysicianSummary) => string | number]> = [
  ['Name', (p) => p.name],
  ['Credentials', (p) => p.credentials],
  ['NPI', (p) => p.npi],
  ['Specialty', (p) => p.specialty],
  ['Practice', (p) => p.practice],
  ['Email', (p) => p.email],
  ['Phone', (p) => p.phone],
  ['Fax', (p) => p.fax],
  ['Address', (p) => p.address],
  ['Status', (p) => p.status],
  ['Referrals', (p) => p.referralCount],
  ['Last referral', (p) => p.lastReferralAt ?? ''],
];

/** One CSV cell: quoted, and never read as a formula by a spreadsheet. */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

async function getPhysiciansCsv(ctx: Input<PhysicianListQuery>): Promise<void> {
  const db = dbOf(ctx);
  const physicians = await listPhysicians(db, scopeOf(ctx, 'read', 'Physician'), ctx.state.input);
  const lines = [
    CSV_COLUMNS.map(([title]) => csvCell(title)).join(','),
    ...physicians.map((p) => CSV_COLUMNS.map(([, value]) => csvCell(value(p))).join(',')),
  ];
  await audit(db, ctx, {
    action: 'physician.export',
    outcome: 'success',
    entityType: 'physician',
    details: { count: physicians.length },
  });
  ctx.set('Content-Type', 'text/csv; charset=utf-8');
  ctx.set('Content-Disposition', 'attachment; filename="physicians.csv"');
  ctx.set('Cache-Control', 'no-store');
  ctx.body = `${lines.join('\r\n')}\r\n`;
}

async function getNpiCheck(ctx: Input<z.infer<typeof NpiCheckQuery>>): Promise<void> {
  const npi = ctx.state.input.npi;
  const valid = isValidNpi(npi);
  const existing = valid ? await dbOf(ctx)('physicians').where({ npi }).first('id', 'name') : undefined;
  ctx.body = {
    valid,
    message: valid ? (existing ? cm.npiTaken : cm.npiValid) : npi === '' ? cm.npiRequired : cm.npiInvalid,
    existing: existing ? { id: existing.id, name: existing.name } : null,
  };
}

async function postPhysician(ctx: Input<PhysicianInput>): Promise<void> {
  const db = dbOf(ctx);
  if (await db('physicians').where({ npi: ctx.state.input.npi }).first('id'))
    throw conflict(cm.npiTaken, { fields: { npi: cm.npiTaken } });
  const id = await insertPhysician(db, ctx.state.input);
  await audit(db, ctx, {
    action: 'physician.create',
    outcome: 'success',
    entityType: 'physician',
    entityId: id,
  });
  ctx.status = 201;
  ctx.body = await physicianDetail(db, id);
}

async function getPhysician(ctx: AppContext): Promise<void> {
  const id = await requirePhysician(ctx, 'read');
  const db = dbOf(ctx);
  await audit(db, ctx, {
    action: 'physician.read',
    outcome: 'success',
    entityType: 'physician',
    entityId: id,
  });
  ctx.body = await physicianDetail(db, id);
}

async function patchPhysician(ctx: Input<UpdatePhysicianInput>): Promise<void> {
  const id = await requirePhysician(ctx, 'update');
  const db = dbOf(ctx);
  const input = ctx.state.input;
  if (
    input.npi !== undefined &&
    (await db('physicians').where({ npi: input.npi }).whereNot({ id }).first('id'))
  )
    throw conflict(cm.npiTaken, { fields: { npi: cm.npiTaken } });
  await updatePhysician(db, id, input);
  await audit(db, ctx, {
    action: 'physician.update',
    outcome: 'success',
    entityType: 'physician',
    entityId: id,
    details: { fields: Object.keys(input).join(',') },
  });
  ctx.body = await physicianDetail(db, id);
}

function decide(to: 'active' | 'inactive') {
  return async (ctx: AppContext): Promise<void> => {
    const id = await requirePhysician(ctx, 'update');
    const db = dbOf(ctx);
    const changed = await db('physicians')
      .where({ id, status: 'pending' })
      .update({ status: to, updated_at: db.fn.now() });
    if (changed === 0) throw conflict(cm.transitionRefused('not pending', to));
    await audit(db, ctx, {
      action: to === 'active' ? 'physician.approve' : 'physician.reject',
      outcome: 'success',
      entityType: 'physician',
      entityId: id,
    });
    ctx.body = await physicianDetail(db, id);
  };
}

/** Admin: which physician record a physician user is (null unlinks). */
async function putUserPhysician(ctx: Input<LinkPhysicianInput>): Promise<void> {
  const db = dbOf(ctx);
  const userId = idParam(ctx);
  const user = await db('users').where({ id: userId }).first('id', 'role', 'physician_id');
  if (!user) throw notFound();
  const { physicianId } = ctx.state.input;
  if (physicianId !== null) {
    if (user.role !== 'physician')
      throw badRequest(cm.notAPhysicianUser, { fields: { physicianId: cm.notAPhysicianUser } });
    if (!(await db('physicians').where({ id: physicianId }).first('id')))
      throw badRequest(cm.choosePhysician, { fields: { physicianId: cm.choosePhysician } });
  }
  await db('users').where({ id: userId }).update({ physician_id: physicianId, updated_at: db.fn.now() });
  await audit(db, ctx, {
    action: physicianId === null ? 'physician.unlink_user' : 'physician.link_user',
    outcome: 'success',
    entityType: 'user',
    entityId: userId,
    details: { physicianId: physicianId ?? user.physician_id ?? null },
  });
  ctx.body = { userId, physicianId };
}

export function physicianRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get(
    '/api/physicians',
    can('read', 'Physician'),
    validate(PhysicianListQuery, 'query'),
    getPhysicians,
  );
  router.get(
    '/api/physicians/export.csv',
    can('read', 'Physician'),
    validate(PhysicianListQuery, 'query'),
    getPhysiciansCsv,
  );
  router.get(
    '/api/physicians/npi-check',
    can('create', 'Physician'),
    validate(NpiCheckQuery, 'query'),
    getNpiCheck,
  );
  router.post(
    '/api/physicians',
    can('create', 'Physician'),
    validate(PhysicianInput),
    inTransaction,
    postPhysician,
  );
  router.get('/api/physicians/:id', can('read', 'Physician'), auditDenials, getPhysician);
  router.patch(
    '/api/physicians/:id',
    can('update', 'Physician'),
    validate(UpdatePhysicianInput),
    auditDenials,
    inTransaction,
    patchPhysician,
  );
  router.post(
    '/api/physicians/:id/approve',
    can('update', 'Physician'),
    auditDenials,
    inTransaction,
    decide('active'),
  );
  router.post(
    '/api/physicians/:id/reject',
    can('update', 'Physician'),
    auditDenials,
    inTransaction,
    decide('inactive'),
  );
  router.put(
    '/api/admin/users/:id/physician',
    can('update', 'User'),
    validate(LinkPhysicianInput),
    inTransaction,
    putUserPhysician,
  );
  return router;
}
