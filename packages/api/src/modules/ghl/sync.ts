import type { Knex } from 'knex';
import { GhlClient, type GhlContact, type GhlSettings } from './client.js';

// The two-way GoHighLevel sync. Contacts come in as patients (lead source GHL, matched by ghlId,
// then by email); patients with no ghlId go out as contacts, and the contact id is stored.
// Running it twice in a row changes nothing the second time.

/** The `source` GoHighLevel records for contacts this product creates. */
export const GHL_CONTACT_SOURCE = 'Wellrest';

export interface GhlSyncOutcome {
  imported: number;
  pushed: number;
}

interface ContactFields {
  ghlId: string;
  name: string;
  email: string;
  phone: string;
}

function text(value: string | null | undefined): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** A contact as patient fields; undefined when it lacks a name or any way to reach the person. */
export function contactToPatient(contact: GhlContact): ContactFields | undefined {
  const email = text(contact.email).toLowerCase();
  const phone = text(contact.phone);
  const name =
    text(contact.contactName) || [text(contact.firstName), text(contact.lastName)].filter(Boolean).join(' ');
  if (!contact.id || name === '' || (email === '' && phone === '')) return undefined;
  return { ghlId: contact.id, name, email, phone };
}

/** "Ada Lovelace King" -> first "Ada", last "Lovelace King". */
export function splitName(name: string): { firstName: string; lastName: string } {
  const parts = name.trim().split(/\s+/);
  return { firstName: parts[0] ?? '', lastName: parts.slice(1).join(' ') };
}

interface PatientMatchRow {
  id: number;
  name: string;
  email: string;
  phone: string;
  ghl_id: string | null;
}

/** Brings one page of contacts in: three queries plus one write per new or changed patient. */
async function importPage(db: Knex, contacts: GhlContact[], touched: number[]): Promise<void> {
  const fields = contacts.map(contactToPatient).filter((c): c is ContactFields => c !== undefined);
  if (fields.length === 0) return;
  const byGhlId = new Map<string, PatientMatchRow>();
  for (const row of await db<PatientMatchRow>('patients')
    .whereIn(
      'ghl_id',
      fields.map((f) => f.ghlId),
    )
    .select('id', 'name', 'email', 'phone', 'ghl_id')) {
    if (row.ghl_id) byGhlId.set(row.ghl_id, row);
  }
  const emails = fields.filter((f) => !byGhlId.has(f.ghlId) && f.email !== '').map((f) => f.email);
  const byEmail = new Map<string, PatientMatchRow>();
  if (emails.length > 0) {
    for (const row of await db<PatientMatchRow>('patients')
      .whereNull('ghl_id')
      .whereRaw(`lower(email) IN (${emails.map(() => '?').join(', ')})`, emails)
      .orderBy('id')
      .select('id', 'name', 'email', 'phone', 'ghl_id')) {
      if (!byEmail.has(row.email.toLowerCase())) byEmail.set(row.email.toLowerCase(), row);
    }
  }

  for (const contact of fields) {
    const known = byGhlId.get(contact.ghlId);
    if (known) {
      // GoHighLevel is the source of these three fields; an empty value there keeps ours.
      const changes: Record<string, string> = {};
      if (contact.name !== known.name) changes.name = contact.name;
      if (contact.email !== '' && contact.email !== known.email.toLowerCase()) changes.email = contact.email;
      if (contact.phone !== '' && contact.phone !== known.phone) changes.phone = contact.phone;
      if (Object.keys(changes).length > 0) {
        await db('patients')
          .where({ id: known.id })
          .update({ ...changes, updated_at: db.fn.now() });
        touched.push(known.id);
      }
      continue;
    }
    const sameEmail = contact.email === '' ? undefined : byEmail.get(contact.email);
    if (sameEmail) {
      // The patient was entered here and exists there too: link them, keep our details.
      await db('patients').where({ id: sameEmail.id }).whereNull('ghl_id').update({ ghl_id: contact.ghlId });
      byEmail.delete(contact.email);
      touched.push(sameEmail.id);
      continue;
    }
    const [row] = await db('patients')
      .insert({
        name: contact.name,
        email: contact.email,
        phone: contact.phone,
        lead_source: 'GHL',
        ghl_id: contact.ghlId,
      })
      .onConflict('ghl_id')
      .ignore()
      .returning('id');
    if (row) touched.push((row as { id: number }).id);
  }
}

/** Sends patients without a ghlId to GoHighLevel and keeps the contact id each one gets. */
async function pushPatients(db: Knex, client: GhlClient, pushed: number[]): Promise<void> {
  const patients = await db<PatientMatchRow>('patients')
    .whereNull('ghl_id')
    .orderBy('id')
    .select('id', 'name', 'email', 'phone', 'ghl_id');
  for (const patient of patients) {
    const email = patient.email.trim();
    const phone = patient.phone.trim();
    if (email === '' && phone === '') continue;
    const { contact } = await client.upsertContact({
      ...splitName(patient.name),
      ...(email ? { email } : {}),
      ...(phone ? { phone } : {}),
      source: GHL_CONTACT_SOURCE,
    });
    // GoHighLevel matched a contact that another patient already stands for: leave this one unlinked.
    const taken = await db('patients').where({ ghl_id: contact.id }).first('id');
    if (taken) continue;
    const updated = await db('patients')
      .where({ id: patient.id })
      .whereNull('ghl_id')
      .update({ ghl_id: contact.id });
    if (updated > 0) pushed.push(patient.id);
  }
}

export async function runGhlSync(
  db: Knex,
  settings: GhlSettings,
): Promise<GhlSyncOutcome & { importedIds: number[]; pushedIds: number[] }> {
  const client = new GhlClient(settings);
  const importedIds: number[] = [];
  for await (const page of client.contactPages()) await importPage(db, page, importedIds);
  const pushedIds: number[] = [];
  await pushPatients(db, client, pushedIds);
  const uniqueImported = [...new Set(importedIds)];
  return {
    imported: uniqueImported.length,
    pushed: pushedIds.length,
    importedIds: uniqueImported,
    pushedIds,
  };
}
