import Router from '@koa/router';
import {
  authMessages,
  messages,
  PRIVACY_POLICY_URL,
  PrivacyAcknowledgmentInput,
  type PrivacyCheck,
  privacyNotice,
  privacyNoticeHash,
} from '@wellrest/core';
import { audit } from '../../audit/audit.js';
import { can } from '../../http/can.js';
import {
  type AppContext,
  type AppContextExtension,
  type AppState,
  clientInfo,
  dbOf,
} from '../../http/context.js';
import { badRequest } from '../../http/errors.js';
import { inTransaction } from '../../http/transaction.js';
import { validate } from '../../http/validate.js';

// The privacy and HIPAA notice every user acknowledges (spec §2, §4). Its version and the
// privacy officer's contact are settings; every acknowledgment is kept with where it came from.

async function noticeSettings(ctx: AppContext) {
  const settings = await ctx.services.settings.all(dbOf(ctx));
  return {
    version: settings.privacyPolicyVersion,
    email: settings.privacyOfficerEmail,
    phone: settings.privacyOfficerPhone,
  };
}

async function check(ctx: AppContext): Promise<void> {
  const { version, email, phone } = await noticeSettings(ctx);
  const latest = await dbOf(ctx)('privacy_acknowledgments')
    .where({ user_id: ctx.state.user?.id ?? 0 })
    .orderBy('acknowledged_at', 'desc')
    .orderBy('id', 'desc')
    .first('policy_version');
  const acknowledgedVersion: string | null = latest?.policy_version ?? null;
  const current = acknowledgedVersion === version;
  const body: PrivacyCheck & { contact: { email: string; phone: string } } = {
    hasAcknowledged: current,
    currentVersion: version,
    acknowledgedVersion,
    needsAcknowledgment: !current,
    contact: { email, phone },
  };
  ctx.body = body;
}

async function acknowledge(
  ctx: AppContext & { state: { input: PrivacyAcknowledgmentInput } },
): Promise<void> {
  const input = ctx.state.input;
  const db = dbOf(ctx);
  const { version } = await noticeSettings(ctx);
  if (input.policyVersion !== version) {
    throw badRequest(messages.common.invalidRequest, {
      fields: { policyVersion: authMessages.policyVersionNotCurrent },
      currentVersion: version,
    });
  }
  const { ip, userAgent } = clientInfo(ctx);
  const [row] = await db('privacy_acknowledgments')
    .insert({
      user_id: ctx.state.user?.id,
      policy_version: input.policyVersion,
      policy_hash: input.policyHash,
      method: input.method,
      policy_url: input.policyUrl,
      ip,
      user_agent: userAgent,
    })
    .returning(['id', 'acknowledged_at']);
  await audit(db, ctx, {
    action: 'privacy.acknowledge',
    outcome: 'success',
    entityType: 'privacy_acknowledgment',
    entityId: row.id,
    details: { policyVersion: input.policyVersion },
  });
  ctx.status = 201;
  ctx.body = {
    success: true,
    policyVersion: input.policyVersion,
    acknowledgedAt: new Date(row.acknowledged_at).toISOString(),
  };
}

/** The notice for the public /privacy-policy page: no sign-in needed. */
async function publicPolicy(ctx: AppContext): Promise<void> {
  const settings = await noticeSettings(ctx);
  ctx.body = {
    ...privacyNotice(settings),
    version: settings.version,
    policyUrl: PRIVACY_POLICY_URL,
    policyHash: privacyNoticeHash(settings),
    contact: { email: settings.email, phone: settings.phone },
  };
}

export function privacyRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get('/api/privacy-acknowledgment/check', can('create', 'PrivacyAcknowledgment'), check);
  router.post<{ input: PrivacyAcknowledgmentInput }>(
    '/api/privacy-acknowledgment',
    can('create', 'PrivacyAcknowledgment'),
    validate(PrivacyAcknowledgmentInput),
    inTransaction,
    acknowledge,
  );
  router.get('/api/public/privacy-policy', publicPolicy);
  return router;
}
