import { addDays, HOLDING_STATUSES, todayInTimeZone } from '@wellrest/core';
import type { Knex } from 'knex';
import { insertUser } from '../../modules/users/store.js';
import { seedDemoWorkflows } from '../../modules/workflows/seed.js';
import { seedDemoClinical } from './clinical.js';
import { seedDemoForms } from './forms.js';
import {
  DEMO_KITS_IN_SERVICE_DAYS,
  DEMO_PASSWORD,
  DEMO_USERS,
  DEMO_WINDOW_DAYS,
  demoEmail,
  demoKits,
  demoPatients,
  type PlannedBooking,
  planDemoBookings,
} from './plan.js';

export { DEMO_PASSWORD } from './plan.js';

/** Settings key recording that the demo data set was loaded (and when). */
export const DEMO_SEED_MARKER = 'demo_seed';

export interface SeedResult {
  /** True when the demo data was already there and nothing was written. */
  skipped: boolean;
  counts: { users: number; kits: number; patients: number; bookings: number };
}

async function tableCounts(db: Knex): Promise<SeedResult['counts']> {
  const count = async (table: string) => Number((await db(table).count({ n: '*' }).first())?.n ?? 0);
  return {
    users: await count('users'),
    kits: await count('kits'),
    patients: await count('patients'),
    bookings: await count('bookings'),
  };
}

/**
 * Loads the demo data set: six users (one per main role, plus `expired` whose password is a year
 * old; all with password 'wellrest-demo'), fifteen kits, forty synthetic patients and about six
 * weeks of bookings around today in the practice time zone. Idempotent: a second run finds its marker and changes nothing. Runs in one
 * transaction, so it either loads everything or nothing.
 */
export async function seedDemo(
  knex: Knex,
  options: {
    timeZone: string;
    now?: Date;
    /** Every demo account must choose its own password at first sign-in (a production server). */
    forcePasswordChange?: boolean;
  },
): Promise<SeedResult> {
  return knex.transaction(async (trx) => {
    // Serialise concurrent seeders (several processes starting at once on one database).
    await trx.raw('LOCK TABLE settings IN SHARE ROW EXCLUSIVE MODE');
    if (await trx('settings').where({ key: DEMO_SEED_MARKER }).first('key')) {
      return { skipped: true, counts: await tableCounts(trx) };
    }

    for (const user of DEMO_USERS) {
      const exists = await trx('users')
        .whereRaw('lower(username) = ?', [user.username])
        .orWhereRaw('lower(email) = ?', [demoEmail(user.username)])
        .first('id');
      if (exists) continue;
      const { passwordAgeDays, ...account } = user;
      const row = await insertUser(trx, {
        ...account,
        email: demoEmail(user.username),
        password: DEMO_PASSWORD,
        mustChangePassword: options.forcePasswordChange ?? false,
      });
      if (passwordAgeDays !== undefined) {
        await trx('users')
          .where({ id: row.id })
          .update({ password_changed_at: trx.raw('now() - make_interval(days => ?)', [passwordAgeDays]) });
      }
    }
    const admin = await trx('users').whereRaw("lower(username) = 'admin'").first('id');

    // The demo fleet has been in service since before the demo bookings began: kit statistics
    // over any recent period count every kit for every day, booked or not.
    await trx('kits')
      .insert(
        demoKits().map((kit) => ({
          ...kit,
          created_at: trx.raw('now() - make_interval(days => ?)', [DEMO_KITS_IN_SERVICE_DAYS]),
        })),
      )
      .onConflict('kit_id')
      .ignore();
    const kits = await trx('kits')
      .whereIn(
        'kit_id',
        demoKits().map((k) => k.kit_id),
      )
      .whereNotIn('status', ['maintenance', 'retired', 'lost'])
      .orderBy('id')
      .select('id', 'type');

    const patientRows = demoPatients().map((p) => ({ ...p, created_by: admin?.id ?? null }));
    const patients: Array<{ id: number }> = await trx('patients').insert(patientRows).returning('id');

    const today = todayInTimeZone(options.timeZone, options.now);
    // Bookings already in the database (demo data loaded into a live system) must not be collided with.
    const existing: PlannedBooking[] = (
      await trx('bookings')
        .whereIn('status', [...HOLDING_STATUSES])
        .whereNotNull('kit_id')
        .where('end_date', '>=', addDays(today, -DEMO_WINDOW_DAYS - 2))
        .select()
    ).map((row) => ({
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
    }));

    const planned = planDemoBookings({
      today,
      kits,
      patientIds: patients.map((p) => p.id),
      existing,
    });
    const bookingRows = planned.map((b) => ({
      patient_id: b.patientId,
      kit_id: b.kitId,
      test_type: b.testType,
      kit_type: b.kitType,
      status: b.status,
      start_date: b.startDate,
      end_date: b.endDate,
      return_date: b.returnDate,
      notes: b.notes,
      created_by: admin?.id ?? null,
    }));
    if (bookingRows.length > 0) await trx('bookings').insert(bookingRows);
    // A kit whose booking is picked up is out with the patient, as check-out would have left it.
    await trx('kits')
      .whereIn('id', trx('bookings').where('status', 'picked_up').whereNotNull('kit_id').select('kit_id'))
      .where('status', 'available')
      .update({ status: 'in_use' });

    await seedDemoForms(
      trx,
      patients.map((p) => p.id),
      admin?.id ?? null,
      options.now,
    );

    await seedDemoClinical(trx, {
      ...(options.now ? { now: options.now } : {}),
      patientIds: patients.map((p) => p.id),
      adminId: admin?.id ?? null,
    });

    await seedDemoWorkflows(trx, admin?.id ?? null);

    await trx('settings').insert({
      key: DEMO_SEED_MARKER,
      value: JSON.stringify({ seededOn: today, windowDays: DEMO_WINDOW_DAYS }),
    });
    return { skipped: false, counts: await tableCounts(trx) };
  });
}
