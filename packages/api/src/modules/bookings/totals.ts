import type { Knex } from 'knex';
import { countRows } from '../../db/paging.js';
import { perDatabase } from '../../db/per-database.js';
import type { AppContext, AppServices } from '../../http/context.js';
import { availabilityVersion, quietVersion } from '../dashboard/availability-cache.js';
import type { BookingFilters } from './store.js';

/** Totals kept per API process: one per filter combination, the most recently used. */
const MAX_ENTRIES = 64;

/**
 * The totals of the paged bookings list, kept between requests: counting every booking is a scan
 * of the whole table (tens of milliseconds at half a million bookings) for a figure that changes
 * only when bookings do. A total is kept under the availability version, which every statement
 * changing bookings advances (migration 0507), and is used only while that version holds.
 */
class BookingTotals {
  private readonly entries = new Map<string, { version: string; total: number }>();

  get(key: string, version: string): number | undefined {
    const entry = this.entries.get(key);
    if (entry?.version !== version) return undefined;
    // Most recently used last: the first entry is the one to drop.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.total;
  }

  set(key: string, version: string, total: number): void {
    this.entries.delete(key);
    this.entries.set(key, { version, total });
    while (this.entries.size > MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}

const totalsOf = perDatabase((_db: AppServices['db']) => new BookingTotals());

/** What a total counted on the bookings table alone depends on: the filters on its own columns. */
function keyOf(filters: BookingFilters): string {
  const { status, kitType, patientId, from, to } = filters;
  return JSON.stringify([
    [...(status ?? [])].sort(),
    kitType ?? null,
    patientId ?? null,
    from ?? null,
    to ?? null,
  ]);
}

/**
 * The number of bookings `query` matches, a query on the bookings table alone with `filters`
 * applied: the kept total while no booking has changed since it was counted, else counted anew.
 * A new count is kept only under a version read while no change was in flight (readQuietVersion),
 * so it never stands for a change it could not see. The quiet version is read on a connection of
 * its own, so inside a request transaction (which may hold the only one) it just counts.
 */
export async function bookingsTotal(
  ctx: AppContext,
  filters: BookingFilters,
  query: Knex.QueryBuilder,
): Promise<number> {
  if (ctx.state.trx) return countRows(query);
  const kept = totalsOf(ctx.services.db);
  const key = keyOf(filters);
  const current = ctx.state.versions?.availability ?? (await availabilityVersion(ctx.services.db.knex));
  const known = kept.get(key, current);
  ctx.services.logger.debug({ cache: 'bookings-total', hit: known !== undefined }, 'cache');
  if (known !== undefined) return known;
  const version = await quietVersion(ctx.services.db.knex);
  const total = await countRows(query);
  if (version !== null) kept.set(key, version, total);
  return total;
}
