import Router from '@koa/router';
import { adminMessages, messages, SettingsPatch } from '@wellrest/core';
import { audit } from '../../audit/audit.js';
import { can } from '../../http/can.js';
import type { AppContext, AppContextExtension, AppState } from '../../http/context.js';
import { badRequest } from '../../http/errors.js';
import { validate } from '../../http/validate.js';
import { drawableLogo } from '../../pdf/writer.js';
import { GhlClient, GhlError } from '../ghl/client.js';
import { publicSettings } from './store.js';

// /admin/settings: every setting with its current value, secrets only as whether they are set.

async function readSettings(ctx: AppContext): Promise<void> {
  ctx.body = publicSettings(await ctx.services.settings.all());
}

async function updateSettings(ctx: AppContext & { state: { input: SettingsPatch } }): Promise<void> {
  const { settings, db } = ctx.services;
  const logo = ctx.state.input.letterheadLogo;
  // The image must be one the reports can draw, not only start like one.
  if (logo && !(await drawableLogo(logo)))
    throw badRequest(messages.common.invalidRequest, {
      fields: { letterheadLogo: adminMessages.settings.letterheadLogoHelp },
    });
  await db.knex.transaction(async (trx) => {
    const changed = await settings.update(trx, ctx.state.input, ctx.state.user?.id ?? null);
    if (changed.length > 0) {
      await audit(trx, ctx, {
        action: 'setting.update',
        outcome: 'success',
        entityType: 'setting',
        // Names only: values can be secrets.
        details: { keys: changed.join(',') },
      });
    }
  });
  // Dropped again once committed, so no request in between keeps the old values.
  settings.invalidate();
  ctx.body = publicSettings(await settings.all());
}

/** One small call to GoHighLevel with the saved settings: does the connection work? */
async function testGhlConnection(ctx: AppContext): Promise<void> {
  const { settings, db } = ctx.services;
  const values = await settings.all();
  let result: { ok: boolean; reason: string | null };
  if (values.ghlToken === '' || values.ghlLocationId === '') result = { ok: false, reason: 'not_configured' };
  else {
    try {
      const client = new GhlClient(db.knex, {
        baseUrl: values.ghlBaseUrl,
        token: values.ghlToken,
        locationId: values.ghlLocationId,
      });
      await client.request('POST', '/contacts/search', { locationId: values.ghlLocationId, pageLimit: 1 });
      result = { ok: true, reason: null };
    } catch (error) {
      result = { ok: false, reason: error instanceof GhlError ? error.kind : 'unavailable' };
    }
  }
  await audit(db.knex, ctx, {
    action: 'setting.test_connection',
    outcome: result.ok ? 'success' : 'failure',
    entityType: 'setting',
    details: { integration: 'ghl', reason: result.reason },
  });
  ctx.body = result;
}

export function settingsRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get('/api/admin/settings', can('read', 'Setting'), readSettings);
  router.patch<{ input: SettingsPatch }>(
    '/api/admin/settings',
    can('update', 'Setting'),
    validate(SettingsPatch),
    updateSettings,
  );
  router.post('/api/admin/settings/ghl-test', can('update', 'Setting'), testGhlConnection);
  return router;
}
