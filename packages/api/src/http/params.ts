import type { AppContext } from './context.js';
import { notFound } from './errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function paramOf(ctx: AppContext, name: string): string {
  return (ctx as AppContext & { params?: Record<string, string> }).params?.[name] ?? '';
}

/** A route's numeric id; anything else names no record (404). */
export function idParam(ctx: AppContext, name = 'id'): number {
  const raw = paramOf(ctx, name);
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(id) || id <= 0) throw notFound();
  return id;
}

/** A route's UUID; anything else names no record (404). */
export function uuidParam(ctx: AppContext, name = 'id'): string {
  const raw = paramOf(ctx, name);
  if (!UUID.test(raw)) throw notFound();
  return raw.toLowerCase();
}
