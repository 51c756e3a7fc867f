import { randomUUID } from 'node:crypto';
import {
  addDays,
  DEFAULT_PRACTICE_TIME_ZONE,
  dayOfWeek,
  type KitType,
  type TestType,
  testDates,
  todayInTimeZone,
} from '@wellrest/core';
import type { Knex } from 'knex';

// Records the booking-operations tests create directly in the database (synthetic data only).

/** Today in the practice's default time zone, as the API computes it. */
export function practiceTodayForTests(): string {
  return todayInTimeZone(DEFAULT_PRACTICE_TIME_ZONE);
}

/** The Wednesday `weeksAhead` weeks after the next one: always a valid start day, never in the past. */
export function wednesdayAhead(weeksAhead = 0): string {
  const today = practiceTodayForTests();
  const offset = (3 - dayOfWeek(today) + 7) % 7 || 7;
  return addDays(today, offset + 7 * weeksAhead);
}

export async function insertKits(
  db: Knex,
  type: KitType,
  count: number,
  status: string = 'available',
): Promise<{ id: number; kitId: string }[]> {
  const prefix = `${type.slice(0, 3).toUpperCase()}-${randomUUID().slice(0, 6)}`;
  const rows = Array.from({ length: count }, (_, i) => ({
    kit_id: `${prefix}-${i + 1}`,
    type,
    status,
    serial_number: `SN-${prefix}-${i + 1}`,
  }));
  const inserted: { id: number; kit_id: string }[] = await db('kits')
    .insert(rows)
    .returning(['id', 'kit_id']);
  return inserted.map((r) => ({ id: r.id, kitId: r.kit_id })).sort((a, b) => a.id - b.id);
}

let patientCounter = 0;

export async function insertPatient(
  db: Knex,
  fields: { name?: string; email?: string; phone?: string; physicianId?: number | null; ghlId?: string } = {},
): Promise<{ id: number; name: string }> {
  patientCounter++;
  const name = fields.name ?? `Test Patient ${patientCounter}`;
  if (fields.physicianId != null) await ensurePhysician(db, fields.physicianId);
  const [row] = await db('patients')
    .insert({
      name,
      email: fields.email ?? `patient-${randomUUID().slice(0, 8)}@example.test`,
      phone: fields.phone ?? `555-01${String(patientCounter % 100).padStart(2, '0')}`,
      physician_id: fields.physicianId ?? null,
      ghl_id: fields.ghlId ?? null,
    })
    .returning(['id', 'name']);
  return row as { id: number; name: string };
}

export async function insertBooking(
  db: Knex,
  fields: {
    patientId: number;
    kitId: number | null;
    kitType: KitType;
    startDate: string;
    testType?: TestType;
    status?: string;
  },
): Promise<number> {
  const testType = fields.testType ?? '2-day';
  const dates = testDates(fields.startDate, testType);
  const [row] = await db('bookings')
    .insert({
      patient_id: fields.patientId,
      kit_id: fields.kitId,
      kit_type: fields.kitType,
      test_type: testType,
      status: fields.status ?? 'confirmed',
      start_date: dates.startDate,
      end_date: dates.endDate,
      return_date: dates.returnDate,
    })
    .returning('id');
  return (row as { id: number }).id;
}

/** A physician record with this id (the foreign keys of 0501 need one), created when missing. */
export async function ensurePhysician(db: Knex, id: number): Promise<void> {
  await db('physicians')
    .insert({ id, name: `Test Physician ${id}`, npi: `TEST-NPI-${id}` })
    .onConflict('id')
    .ignore();
}

export async function linkPhysician(db: Knex, userId: number, physicianId: number): Promise<void> {
  await ensurePhysician(db, physicianId);
  await db('users').where({ id: userId }).update({ physician_id: physicianId });
}
