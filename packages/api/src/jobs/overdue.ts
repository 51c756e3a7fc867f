import { messagingMessages, todayInTimeZone } from '@wellrest/core';
import type { Knex } from 'knex';
import { notify } from '../modules/notifications/store.js';
import { writeOutbox } from './outbox.js';

// The nightly overdue-return scan: kits picked up whose return date has passed (in the practice
// time zone) and that have not come back. Schedulers get one notification; each booking gets a
// `booking.return_overdue` event for the workflows that message patients.

export const OVERDUE_SCAN_QUEUE = 'overdue-returns-scan';
/** Every night at 02:00 practice time. */
export const OVERDUE_SCAN_CRON = '0 2 * * *';

export async function scanOverdueReturns(
  knex: Knex,
  timeZone: string,
  now: Date = new Date(),
): Promise<{ overdue: number; date: string }> {
  const today = todayInTimeZone(timeZone, now);
  return knex.transaction(async (trx) => {
    const rows: { id: number }[] = await trx('bookings')
      .where({ status: 'picked_up' })
      .where('return_date', '<', today)
      .orderBy('id')
      .select('id');
    if (rows.length === 0) return { overdue: 0, date: today };
    for (const { id } of rows)
      await writeOutbox(trx, 'booking.return_overdue', { bookingId: id, date: today });
    await notify(trx, {
      role: 'scheduler',
      kind: 'booking.return_overdue',
      title: messagingMessages.notifications.overdueReturns(rows.length),
      body: messagingMessages.notifications.overdueReturnsBody,
      link: '/bookings',
    });
    return { overdue: rows.length, date: today };
  });
}
