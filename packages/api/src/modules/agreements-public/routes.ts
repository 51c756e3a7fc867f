import Router from '@koa/router';
import { audit } from '../../audit/audit.js';
import { can } from '../../http/can.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { notFound } from '../../http/errors.js';
import { idParam } from '../../http/params.js';
import { listSignedAgreements, signedAgreementPdf } from './store.js';

// Signed agreements for staff (/consents): the list and each PDF, every read audited.

async function getAgreements(ctx: AppContext): Promise<void> {
  const db = dbOf(ctx);
  const agreements = await listSignedAgreements(db);
  await audit(db, ctx, {
    action: 'agreement.list',
    outcome: 'success',
    entityType: 'agreement',
    details: { count: agreements.length },
  });
  ctx.body = agreements;
}

async function getAgreementPdf(ctx: AppContext): Promise<void> {
  const db = dbOf(ctx);
  const id = idParam(ctx);
  const pdf = await signedAgreementPdf(db, id);
  if (!pdf) throw notFound();
  await audit(db, ctx, {
    action: 'agreement.pdf',
    outcome: 'success',
    entityType: 'agreement',
    entityId: id,
  });
  ctx.type = 'application/pdf';
  // The file name carries the record id only, never the patient's name.
  ctx.attachment(`agreement-${id}.pdf`);
  ctx.body = pdf;
}

export function signedAgreementRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get('/api/agreements', can('read', 'Agreement'), getAgreements);
  router.get('/api/agreements/:id/pdf', can('read', 'Agreement'), getAgreementPdf);
  return router;
}
