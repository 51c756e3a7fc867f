import {
  addDays,
  type Booking,
  type BookingEvent,
  type BookingListItem,
  type BookingListQuery,
  type BookingStatus,
  HOLDING_STATUSES,
  type HoldingFields,
  isKitReadyFor,
  type Kit,
  type KitType,
  MAINTENANCE_DAYS,
  type Page,
  type TestType,
  testDates,
  todayInTimeZone,
} from '@wellrest/core';
import type { Knex } from 'knex';
import { fetchPage } from '../../db/paging.js';
import { type AppContext, dbOf } from '../../http/context.js';
import { outboxInsert } from '../../jobs/outbox.js';
import { type KitRow, toKit } from '../kits/store.js';
import { accessFor, applyScope, PATIENT_SCOPE, scopeOf } from '../patients/access.js';
import { bookingsTotal } from './totals.js';

export interface BookingRow {
  id: number;
  patient_id: number;
  kit_id: number | null;
  test_type: TestType;
  kit_type: KitType;
  status: BookingStatus;
  start_date: string;
  end_date: string;
  return_date: string;
  notes: string | null;
  created_by: number | null;
}

/** A booking row joined with what lists show: patient name and physician, kit label. */
export interface BookingListRow extends BookingRow {
  patient_name: string;
  physician_id: number | null;
  kit_label: string | null;
  agreement_status?: string | null;
}

export function toBooking(row: BookingRow & { physician_id?: number | null }): Booking {
  return {
    id: row.id,
    patientId: row.patient_id,
    kitId: row.kit_id,
    testType: row.test_type,
    kitType: row.kit_type,
    status: row.status,
    startDate: row.start_date,
    endDate: row.end_date,
    returnDate: row.return_date,
    notes: row.notes,
    physicianId: row.physician_id ?? null,
  };
}

export function toBookingListItem(row: BookingListRow): BookingView {
  const agreementStatus = (AGREEMENT_STATES as readonly string[]).includes(row.agreement_status ?? '')
    ? (row.agreement_status as AgreementState)
    : 'none';
  return { ...toBooking(row), patientName: row.patient_name, kitLabel: row.kit_label, agreementStatus };
}

/** "Today" in the practice time zone (a setting, DESIGN.md §2), never the server clock's zone. */
export async function practiceToday(ctx: AppContext): Promise<string> {
  return todayInTimeZone(await ctx.services.settings.get('practiceTimeZone', dbOf(ctx)));
}

/** SQL of the dates a holding booking keeps its kit: start through the maintenance day after the end. */
export const HELD_RANGE_SQL = `daterange(bookings.start_date, bookings.end_date + ${MAINTENANCE_DAYS + 1}, '[)')`;

/**
 * The kits of one type and the holding bookings of those kits that overlap the dates from
 * `from` through `to`: all the availability engine needs to decide about that window. One
 * round trip per table, whatever the size of either. With `readyFor`, also the cleaning gate:
 * the kits back from a test and waiting for their cleaning that will not be clean in time for a
 * test starting on `startDate` (core's isKitReadyFor).
 */
export async function loadKitsAndHolds(
  db: Knex,
  kitType: KitType,
  window: { from: string; to: string },
  options: { readyFor?: { startDate: string; today: string } } = {},
): Promise<{ kits: Kit[]; holds: HoldingFields[]; notReady: Set<number> }> {
  const rows = (await db<KitRow>('kits')
    .select('id', 'kit_id', 'type', 'status', 'serial_number', 'notes', 'cleaning_due_on')
    .where({ type: kitType })
    .orderBy('id')
    .options({ name: 'wellrest-kits-of-type' })) as (KitRow & { cleaning_due_on: string | null })[];
  // Only what the decision reads: at full scale a kit type has hundreds of holds in a window,
  // and reading whole rows (notes, timestamps) cost more than the query.
  const holds = (
    (await db<BookingRow>('bookings')
      .select('bookings.id', 'bookings.kit_id', 'bookings.status', 'bookings.start_date', 'bookings.end_date')
      .join('kits', 'kits.id', 'bookings.kit_id')
      .where('kits.type', kitType)
      .whereIn('bookings.status', HOLDING_STATUSES)
      .whereRaw(`${HELD_RANGE_SQL} && daterange(?::date, ?::date, '[]')`, [window.from, window.to])
      // Prepared once per connection: every booking decision reads it, and planning cost more than the read.
      .options({ name: 'wellrest-kit-holds' })) as Pick<
      BookingRow,
      'id' | 'kit_id' | 'status' | 'start_date' | 'end_date'
    >[]
  ).map(
    (row): HoldingFields => ({
      id: row.id,
      kitId: row.kit_id,
      status: row.status,
      startDate: row.start_date,
      endDate: row.end_date,
    }),
  );
  const { readyFor } = options;
  const notReady = new Set(
    readyFor
      ? rows
          .filter(
            (k) =>
              k.status === 'cleaning' &&
              !isKitReadyFor(
                { status: 'cleaning', cleaningDueOn: k.cleaning_due_on },
                readyFor.startDate,
                readyFor.today,
              ),
          )
          .map((k) => k.id)
      : [],
  );
  return { kits: rows.map(toKit), holds, notReady };
}

/** The window a test of `testType` from `startDate` needs its kit for, maintenance day included. */
export function neededWindow(startDate: string, testType: TestType): { from: string; to: string } {
  return { from: startDate, to: addDays(testDates(startDate, testType).endDate, MAINTENANCE_DAYS) };
}

const SORT_ORDER: Record<BookingListQuery['sort'], [string, 'asc' | 'desc']> = {
  startDate: ['bookings.start_date', 'asc'],
  '-startDate': ['bookings.start_date', 'desc'],
  returnDate: ['bookings.return_date', 'asc'],
  '-returnDate': ['bookings.return_date', 'desc'],
  id: ['bookings.id', 'asc'],
  '-id': ['bookings.id', 'desc'],
};

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Bookings joined with their patient (for the name and the physician scope) and kit label. */
export function bookingsQuery(db: Knex): Knex.QueryBuilder {
  return db('bookings')
    .join('patients', 'patients.id', 'bookings.patient_id')
    .leftJoin('kits', 'kits.id', 'bookings.kit_id');
}

/** Where a booking's agreement form stands: signed, sent (not signed yet) or never sent. */
export const AGREEMENT_STATES = ['signed', 'sent', 'none'] as const;
export type AgreementState = (typeof AGREEMENT_STATES)[number];

/** One correlated lookup on the indexed booking_id: no extra round trip per list. */
const AGREEMENT_STATE_SQL = `(select case when bool_or(agreements.status = 'signed') then 'signed'
  when bool_or(agreements.status = 'sent') then 'sent' else 'none' end
  from agreements where agreements.booking_id = bookings.id) as agreement_status`;

function listColumns(db: Knex): (string | Knex.Raw)[] {
  return [
    'bookings.*',
    'patients.name as patient_name',
    'patients.physician_id as physician_id',
    'kits.kit_id as kit_label',
    db.raw(AGREEMENT_STATE_SQL),
  ];
}

/**
 * An unpaged list answers at most this many rows (the earliest first, in the order asked):
 * callers ask for a date window; screens that browse the history ask page by page.
 */
export const UNPAGED_BOOKINGS_MAX = 2000;

/** The list filters: core's, with any number of statuses. */
export type BookingFilters = Omit<BookingListQuery, 'status'> & { status?: BookingStatus[] };

/** A list row or a detail: the list item plus where its agreement stands. */
export type BookingView = BookingListItem & { agreementStatus: AgreementState };

interface BookingEventRow {
  id: number;
  booking_id: number;
  action: BookingEvent['action'];
  from_status: BookingStatus | null;
  to_status: BookingStatus | null;
  reason: string | null;
  actor_user_id: number | null;
  actor_username: string | null;
  details: BookingEvent['details'];
  occurred_at: Date;
}

/** The list filters on the bookings table's own columns. */
function applyBookingFilters(query: Knex.QueryBuilder, params: BookingFilters): Knex.QueryBuilder {
  if (params.status && params.status.length > 0) query.whereIn('bookings.status', params.status);
  if (params.kitType) query.where('bookings.kit_type', params.kitType);
  if (params.patientId) query.where('bookings.patient_id', params.patientId);
  if (params.from) query.where('bookings.return_date', '>=', params.from);
  if (params.to) query.where('bookings.start_date', '<=', params.to);
  return query;
}

/** Booking reads for the caller: every query limited to the bookings of patients they may see. */
export function bookingReader(ctx: AppContext) {
  const { db } = accessFor(ctx);

  function scoped(action: 'read' | 'update' | 'extend' | 'reduce'): Knex.QueryBuilder {
    const query = bookingsQuery(db);
    applyScope(query, scopeOf(ctx, action, 'Booking'), PATIENT_SCOPE);
    return query;
  }

  return {
    scoped,

    /** Unpaged: at most UNPAGED_BOOKINGS_MAX rows, `truncated` when more match. */
    async list(
      params: BookingFilters,
    ): Promise<{ rows: BookingView[]; truncated: boolean } | Page<BookingView>> {
      const query = scoped('read');
      applyBookingFilters(query, params);
      if (params.q) {
        const q = params.q;
        const pattern = `%${escapeLike(q)}%`;
        query.where((w) => {
          w.whereILike('patients.name', pattern).orWhereILike('kits.kit_id', pattern);
          if (/^\d{1,9}$/.test(q)) w.orWhere('bookings.id', Number(q));
        });
      }
      const [column, order] = SORT_ORDER[params.sort];
      // Ties by id in the same direction: a page is then read straight off a (date, id) index,
      // forwards or backwards (migration 0509).
      query.orderBy(
        column === 'bookings.id'
          ? [{ column, order }]
          : [
              { column, order },
              { column: 'bookings.id', order },
            ],
      );
      if (params.page === undefined) {
        const rows = (await query
          .select(listColumns(db))
          .limit(UNPAGED_BOOKINGS_MAX + 1)) as BookingListRow[];
        return {
          rows: rows.slice(0, UNPAGED_BOOKINGS_MAX).map(toBookingListItem),
          truncated: rows.length > UNPAGED_BOOKINGS_MAX,
        };
      }
      // Without a name search or a record scope, the joins only add columns: count bookings
      // alone, a total kept until bookings change (totals.ts).
      const count =
        !params.q && scopeOf(ctx, 'read', 'Booking').kind === 'all'
          ? () => bookingsTotal(ctx, params, applyBookingFilters(db('bookings'), params))
          : query;
      const { rows, total } = await fetchPage<BookingListRow>(
        query,
        listColumns(db),
        params.page,
        params.pageSize,
        count,
      );
      return { items: rows.map(toBookingListItem), total, page: params.page, pageSize: params.pageSize };
    },

    /** One booking the caller may act on with `action`, optionally locked for the transaction. */
    async find(
      id: number,
      action: 'read' | 'update' | 'extend' | 'reduce' = 'read',
      options: { lock?: boolean; writing?: readonly Knex.QueryBuilder[] } = {},
    ): Promise<BookingView | undefined> {
      const query = scoped(action)
        .where('bookings.id', id)
        .first(...listColumns(db));
      // Locks the booking row only: the patient and kit rows are read, not changed.
      if (options.lock) query.forUpdate('bookings');
      // Inserts of the change's history and audit, run by this statement (data-modifying WITHs
      // always run, read or not): a booking change ends in one round trip, not one per row.
      for (const [index, write] of (options.writing ?? []).entries()) query.with(`write_${index}`, write);
      const row = (await query) as BookingListRow | undefined;
      return row ? toBookingListItem(row) : undefined;
    },

    /** Where the booking's agreement stands, with the times of the last form sent and signed. */
    async agreement(
      bookingId: number,
    ): Promise<{ status: AgreementState; sentAt: string | null; signedAt: string | null }> {
      const rows = (await db('agreements')
        .where({ booking_id: bookingId })
        .orderBy('id', 'desc')
        .select('status', 'created_at', 'signed_at')) as {
        status: string;
        created_at: Date;
        signed_at: Date | null;
      }[];
      const signed = rows.find((r) => r.status === 'signed');
      const last = rows.find((r) => r.status === 'sent');
      const iso = (value: Date | null | undefined) => (value ? new Date(value).toISOString() : null);
      return {
        status: signed ? 'signed' : last ? 'sent' : 'none',
        sentAt: iso(last?.created_at),
        signedAt: iso(signed?.signed_at),
      };
    },

    async events(bookingId: number): Promise<BookingEvent[]> {
      const rows = await db<BookingEventRow>('booking_events')
        .where({ booking_id: bookingId })
        .orderBy([{ column: 'occurred_at' }, { column: 'id' }]);
      return rows.map((r) => ({
        id: r.id,
        bookingId: r.booking_id,
        action: r.action,
        fromStatus: r.from_status,
        toStatus: r.to_status,
        reason: r.reason,
        actorUserId: r.actor_user_id,
        actorUsername: r.actor_username,
        details: r.details,
        occurredAt: new Date(r.occurred_at).toISOString(),
      }));
    },
  };
}

/** The booking changes workflows can start from, and the outbox topic each is written as. */
const BOOKING_TOPICS: Partial<Record<BookingEvent['action'], string>> = {
  created: 'booking.created',
  status_changed: 'booking.status_changed',
  extended: 'booking.extended',
  reduced: 'booking.reduced',
};

/**
 * Appends a line to a booking's history, by the request's user, and the outbox event of the
 * change in the same transaction (so workflows hear of exactly the committed changes).
 */
export async function recordBookingEvent(db: Knex, ctx: AppContext, event: BookingEventInput): Promise<void> {
  for (const write of bookingEventWrites(db, ctx, event)) await write;
}

export interface BookingEventInput {
  bookingId: number;
  action: BookingEvent['action'];
  fromStatus?: BookingStatus | null;
  toStatus?: BookingStatus | null;
  reason?: string | null;
  details?: BookingEvent['details'];
}

/**
 * {@link recordBookingEvent}'s inserts, not yet run: for a request that writes them with the
 * statement it ends on (`find`'s `writing`), one round trip for all.
 */
export function bookingEventWrites(db: Knex, ctx: AppContext, event: BookingEventInput): Knex.QueryBuilder[] {
  const user = ctx.state.user;
  const topic = BOOKING_TOPICS[event.action];
  const history = db('booking_events').insert({
    booking_id: event.bookingId,
    action: event.action,
    from_status: event.fromStatus ?? null,
    to_status: event.toStatus ?? null,
    reason: event.reason ?? null,
    actor_user_id: user?.id ?? null,
    actor_username: user?.username ?? null,
    details: JSON.stringify(event.details ?? {}),
  });
  if (!topic) return [history];
  const payload = {
    bookingId: event.bookingId,
    from: event.fromStatus ?? null,
    to: event.toStatus ?? null,
    ...(ctx.state.workflowOrigin ? { origin: ctx.state.workflowOrigin } : {}),
  };
  return [outboxInsert(db, topic, payload), history];
}

/** PostgreSQL's exclusion_violation: the kit is held by another booking on one of those dates. */
export function isKitHoldConflict(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23P01';
}
