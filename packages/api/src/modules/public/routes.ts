import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import {
  DropoffReportInput,
  messages,
  PhysicianSignupInput,
  PublicAvailabilityQuery,
  PublicBookingRequestInput,
  PublicReferralInput,
  publicFormsMessages,
  SignAgreementInput,
} from '@wellrest/core';
import { audit } from '../../audit/audit.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { badRequest } from '../../http/errors.js';
import { inTransaction } from '../../http/transaction.js';
import { validate } from '../../http/validate.js';
import { version } from '../../version.js';
import { signAgreement, viewAgreement } from '../agreements-public/store.js';
import { createBookingRequest } from '../booking-requests/store.js';
import { practiceToday } from '../bookings/store.js';
import { reportDropoff } from '../dropoffs/store.js';
import { createPhysicianSignup } from '../physicians/signups.js';
import { attachmentType } from '../referrals/routes.js';
import { createPublicReferral } from '../referrals/store.js';
import { publicAvailability } from './availability.js';
import { withinDeadline } from './deadline.js';
import {
  claimSubmission,
  embedAccess,
  minimumFillTime,
  type PublicContext,
  preflight,
  replayRepeats,
  submissionRateLimit,
} from './guard.js';

// Everything the widgets and the public pages call, without a session. Each route: the embed key
// and origin check, validation, the anti-bot checks, a repeat answered as the first time, the rate
// limit, then one transaction that claims the idempotency key and stores the submission.

type Input<T> = PublicContext & { state: { input: T } };

function tokenParam(ctx: AppContext): string {
  return (ctx as AppContext & { params?: Record<string, string> }).params?.token ?? '';
}

async function getAvailability(ctx: Input<PublicAvailabilityQuery>): Promise<void> {
  ctx.body = await publicAvailability(dbOf(ctx), ctx.state.input, await practiceToday(ctx));
}

async function postBookingRequest(ctx: Input<PublicBookingRequestInput>): Promise<void> {
  const db = dbOf(ctx);
  const input = ctx.state.input;
  const claim = await claimSubmission(db, ctx, 'booking_request', input.idempotencyKey);
  if (!claim.repeated) {
    const meta = { requestId: claim.requestId, embedKeyId: ctx.state.embedKeyId ?? null };
    const created = await createBookingRequest(db, ctx, input, meta);
    await audit(db, ctx, {
      action: 'public.booking_request',
      outcome: 'success',
      entityType: 'booking_request',
      entityId: created.id,
      details: { bookingId: created.bookingId, embedKeyId: meta.embedKeyId },
    });
  }
  ctx.status = claim.repeated ? 200 : 201;
  ctx.body = { requestId: claim.requestId };
}

async function postReferral(ctx: Input<PublicReferralInput>): Promise<void> {
  const db = dbOf(ctx);
  const input = ctx.state.input;
  // The attachment's type is what its content says, not what the form declared.
  let attachment: { filename: string; contentType: string; data: Buffer } | null = null;
  if (input.attachment) {
    const data = Buffer.from(input.attachment.dataBase64, 'base64');
    const contentType = await attachmentType(data);
    if (!contentType)
      throw badRequest(messages.common.invalidRequest, {
        fields: { 'attachment.contentType': publicFormsMessages.attachmentType },
      });
    attachment = { filename: input.attachment.filename, contentType, data };
  }
  const claim = await claimSubmission(db, ctx, 'referral', input.idempotencyKey);
  if (!claim.repeated) {
    const meta = { requestId: claim.requestId, embedKeyId: ctx.state.embedKeyId ?? null };
    const created = await createPublicReferral(db, input, meta, attachment);
    await audit(db, ctx, {
      action: 'public.referral',
      outcome: 'success',
      entityType: 'referral',
      entityId: created.id,
      details: {
        physicianId: created.physicianId,
        physicianCreated: created.physicianCreated,
        embedKeyId: meta.embedKeyId,
      },
    });
  }
  ctx.status = claim.repeated ? 200 : 201;
  ctx.body = { requestId: claim.requestId };
}

async function postPhysicianSignup(ctx: Input<PhysicianSignupInput>): Promise<void> {
  const db = dbOf(ctx);
  const claim = await claimSubmission(db, ctx, 'physician_signup', ctx.state.input.idempotencyKey);
  if (!claim.repeated) {
    const meta = { requestId: claim.requestId, embedKeyId: ctx.state.embedKeyId ?? null };
    const id = await createPhysicianSignup(db, ctx.state.input, meta);
    await audit(db, ctx, {
      action: 'public.physician_signup',
      outcome: 'success',
      entityType: 'physician_signup',
      entityId: id,
      details: { embedKeyId: meta.embedKeyId },
    });
  }
  ctx.status = claim.repeated ? 200 : 201;
  ctx.body = { requestId: claim.requestId };
}

async function postDropoff(ctx: Input<DropoffReportInput>): Promise<void> {
  const db = dbOf(ctx);
  // Claimed outside any transaction, so every attempt counts towards the rate limit.
  const claim = await claimSubmission(db, ctx, 'dropoff', randomUUID());
  const created = await reportDropoff(db, ctx.state.input, claim.requestId);
  await audit(db, ctx, {
    action: 'public.dropoff',
    outcome: created ? 'success' : 'denied',
    entityType: 'dropoff',
    entityId: created?.id ?? null,
    details: created ? { bookingId: created.bookingId } : { reason: 'link_not_valid' },
  });
  // The same answer whether or not the link named a booking: a good link and a guess look alike.
  ctx.status = 202;
  ctx.body = { requestId: claim.requestId };
}

async function getAgreement(ctx: PublicContext): Promise<void> {
  ctx.body = await viewAgreement(dbOf(ctx), ctx, tokenParam(ctx));
}

async function postSignAgreement(ctx: Input<SignAgreementInput>): Promise<void> {
  ctx.body = await signAgreement(dbOf(ctx), ctx, tokenParam(ctx), ctx.state.input);
}

async function getDiagnostics(ctx: PublicContext): Promise<void> {
  let database: 'ready' | 'unavailable' = 'ready';
  try {
    await withinDeadline(ctx.services.db.knex.raw('select 1'));
  } catch {
    database = 'unavailable';
  }
  // 503 while the database is unreachable: the widgets then say they can't load (and check again)
  // instead of showing a form that would fail on submit.
  if (database === 'unavailable') ctx.status = 503;
  ctx.body = { api: 'ok', version, serverTime: new Date().toISOString(), database };
}

export function publicRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.options('/api/public/{*rest}', preflight);
  router.get('/api/public/diagnostics', embedAccess, getDiagnostics);
  router.get(
    '/api/public/availability',
    embedAccess,
    validate(PublicAvailabilityQuery, 'query'),
    getAvailability,
  );
  router.post(
    '/api/public/booking-requests',
    embedAccess,
    validate(PublicBookingRequestInput),
    minimumFillTime,
    replayRepeats('booking_request'),
    submissionRateLimit,
    inTransaction,
    postBookingRequest,
  );
  router.post(
    '/api/public/referrals',
    embedAccess,
    validate(PublicReferralInput),
    minimumFillTime,
    replayRepeats('referral'),
    submissionRateLimit,
    inTransaction,
    postReferral,
  );
  router.post(
    '/api/public/physician-signups',
    embedAccess,
    validate(PhysicianSignupInput),
    minimumFillTime,
    replayRepeats('physician_signup'),
    submissionRateLimit,
    inTransaction,
    postPhysicianSignup,
  );
  router.post(
    '/api/public/dropoffs',
    embedAccess,
    validate(DropoffReportInput),
    submissionRateLimit,
    postDropoff,
  );
  router.get('/api/public/agreements/:token', embedAccess, getAgreement);
  router.post(
    '/api/public/agreements/:token/sign',
    embedAccess,
    validate(SignAgreementInput),
    submissionRateLimit,
    inTransaction,
    postSignAgreement,
  );
  return router;
}
