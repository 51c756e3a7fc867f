import Router from '@koa/router';
import { ScanInput, ScanListQuery, ScannerSettings } from '@wellrest/core';
import { can } from '../../http/can.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { unauthorized } from '../../http/errors.js';
import { inTransaction } from '../../http/transaction.js';
import { validate } from '../../http/validate.js';
import { recentScans, recordScan, saveScannerSettings, scannerSettingsOf } from './operations.js';

type With<T> = AppContext & { state: { input: T } };

function userIdOf(ctx: AppContext): number {
  const user = ctx.state.user;
  if (!user) throw unauthorized();
  return user.id;
}

async function postScan(ctx: With<ScanInput>): Promise<void> {
  const answer = await recordScan(ctx, ctx.state.input);
  // A refused scan is stored too, so the transaction commits and the refusal is the answer.
  ctx.status = answer.status;
  ctx.body =
    answer.status === 200
      ? { scan: answer.scan, booking: answer.booking }
      : { error: answer.scan.message, scan: answer.scan };
}

async function getScans(ctx: With<ScanListQuery>): Promise<void> {
  ctx.body = await recentScans(dbOf(ctx), ctx.state.input.limit);
}

async function getScannerSettings(ctx: AppContext): Promise<void> {
  ctx.body = await scannerSettingsOf(dbOf(ctx), userIdOf(ctx));
}

async function putScannerSettings(ctx: With<ScannerSettings>): Promise<void> {
  await saveScannerSettings(dbOf(ctx), userIdOf(ctx), ctx.state.input);
  ctx.body = ctx.state.input;
}

export function scanRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  // Scanning moves a kit and its booking together: it needs both permissions.
  router.post<{ input: ScanInput }>(
    '/api/scans',
    can('update', 'Kit'),
    can('update', 'Booking'),
    validate(ScanInput),
    inTransaction,
    postScan,
  );
  router.get<{ input: ScanListQuery }>(
    '/api/scans',
    can('read', 'Kit'),
    validate(ScanListQuery, 'query'),
    getScans,
  );
  router.get('/api/scanner-settings', can('update', 'Kit'), getScannerSettings);
  router.put<{ input: ScannerSettings }>(
    '/api/scanner-settings',
    can('update', 'Kit'),
    validate(ScannerSettings),
    putScannerSettings,
  );
  return router;
}
