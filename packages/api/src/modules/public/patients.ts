import type { LeadSource } from '@wellrest/core';
import type { Knex } from 'knex';
import { writeOutbox } from '../../jobs/outbox.js';

/**
 * The patient a public form names: the existing one with the same email and name (case and
 * spacing aside), else a new one. Returns the id and whether it was created.
 */
export async function matchOrCreatePatient(
  db: Knex,
  person: { name: string; email?: string | undefined; phone: string; dateOfBirth?: string | undefined },
  leadSource: LeadSource,
  physicianId: number | null = null,
): Promise<{ id: number; created: boolean }> {
  if (person.email) {
    const found = await db('patients')
      .whereRaw('lower(email) = lower(?)', [person.email])
      .andWhereRaw('lower(trim(name)) = lower(?)', [person.name.trim()])
      .orderBy('id')
      .first<{ id: number } | undefined>('id');
    if (found) return { id: found.id, created: false };
  }
  const [row] = await db('patients')
    .insert({
      name: person.name,
      email: person.email ?? '',
      phone: person.phone,
      date_of_birth: person.dateOfBirth || null,
      lead_source: leadSource,
      physician_id: physicianId,
    })
    .returning('id');
  await writeOutbox(db, 'patient.created', { patientId: (row as { id: number }).id });
  return { id: (row as { id: number }).id, created: true };
}

/** UTM parameters as stored: only the ones given. */
export function utmJson(utm: Record<string, string | undefined> | undefined): string {
  const given = Object.entries(utm ?? {}).filter(([, value]) => value !== undefined && value !== '');
  return JSON.stringify(Object.fromEntries(given));
}
