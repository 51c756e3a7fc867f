import { createHash, randomUUID } from 'node:crypto';
import { ghlNameDecision } from '@wellrest/core';
import type { Knex } from 'knex';
import { writeOutbox } from '../../jobs/outbox.js';
import { GhlClient, type GhlClientOptions, type GhlContact, GhlError, type GhlSettings } from './client.js';

// The two-way GoHighLevel sync, as plain functions of a database and settings (the job queue
// only calls them). Contacts come in as patients (lead source GHL, matched by ghlId, then by
// email); patients with no ghlId go out as contacts, and the contact id is stored.
// - Before an upsert the duplicate search tells which contact GoHighLevel would overwrite; one
//   that already stands for another patient is left alone and a conflict recorded instead.
// - A contact GoHighLevel refuses (400/422) is recorded on its patient and skipped; that patient
//   is tried again only once its name, email or phone changes.
// - A name changed on both sides since the last sync is a conflict, not overwritten.
// Running it twice in a row changes nothing the second time.

/** The `source` GoHighLevel records for contacts this product creates. */
export const GHL_CONTACT_SOURCE = 'Wellrest';
/** Patients one worker claims at a time. */
const PUSH_BATCH = 10;
/** A claim left by a worker that died lapses after this long. */
const LEASE_MINUTES = 10;

export interface GhlSyncCounts {
  imported: number;
  pushed: number;
  rejected: number;
  conflicts: number;
}

export interface GhlSyncOutcome extends GhlSyncCounts {
  runId: number;
  importedIds: number[];
  pushedIds: number[];
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

/** A contact's display name: contactName, else first and last name. */
export function contactName(contact: GhlContact): string {
  return (
    text(contact.contactName) || [text(contact.firstName), text(contact.lastName)].filter(Boolean).join(' ')
  );
}

/** A contact as patient fields; undefined when it lacks a name or any way to reach the person. */
export function contactToPatient(contact: GhlContact): ContactFields | undefined {
  const email = text(contact.email).toLowerCase();
  const phone = text(contact.phone);
  const name = contactName(contact);
  if (!contact.id || name === '' || (email === '' && phone === '')) return undefined;
  return { ghlId: contact.id, name, email, phone };
}

/** "Ada Lovelace King" -> first "Ada", last "Lovelace King". */
export function splitName(name: string): { firstName: string; lastName: string } {
  const parts = name.trim().split(/\s+/);
  return { firstName: parts[0] ?? '', lastName: parts.slice(1).join(' ') };
}

/**
 * What a patient looked like when it was sent: md5 of name, email and phone, the same as the
 * SQL expression FINGERPRINT_SQL, so a recorded rejection stands until one of them changes.
 */
export function fingerprint(patient: { name: string; email: string; phone: string }): string {
  return createHash('md5')
    .update(`${patient.name}\n${patient.email}\n${patient.phone}`, 'utf8')
    .digest('hex');
}
const FINGERPRINT_SQL = 'md5(p.name || chr(10) || p.email || chr(10) || p.phone)';

interface PatientMatchRow {
  id: number;
  name: string;
  email: string;
  phone: string;
  ghl_id: string | null;
}

export function ghlClient(db: Knex, settings: GhlSettings, options: GhlClientOptions = {}): GhlClient {
  return new GhlClient(db, settings, options);
}

/** Starts the sync report's row for one run. */
export async function startGhlRun(db: Knex, createdBy: number | null): Promise<number> {
  const [row] = await db('ghl_sync_runs').insert({ created_by: createdBy }).returning('id');
  return (row as { id: number }).id;
}

async function bump(db: Knex, runId: number, counts: Partial<GhlSyncCounts>): Promise<void> {
  const changes: Record<string, Knex.Raw> = {};
  for (const [key, value] of Object.entries(counts)) {
    if (value) changes[key] = db.raw('?? + ?', [key, value]);
  }
  if (Object.keys(changes).length > 0) await db('ghl_sync_runs').where({ id: runId }).update(changes);
}

/** Ends a run: done, or stopped (daily budget) / failed with the error's kind. */
export async function finishGhlRun(db: Knex, runId: number, error?: GhlError | unknown): Promise<void> {
  if (error === undefined) {
    await db('ghl_sync_runs').where({ id: runId }).update({ status: 'done', finished_at: db.fn.now() });
    return;
  }
  const ghl = error instanceof GhlError ? error : undefined;
  await db('ghl_sync_runs')
    .where({ id: runId })
    .update({
      status: ghl?.kind === 'daily_limit' ? 'stopped' : 'failed',
      stop_code: ghl?.kind ?? 'internal',
      resumes_at: ghl?.detail.resumesAt ?? null,
      finished_at: db.fn.now(),
    });
}

interface IssueInput {
  patientId: number;
  kind: 'rejected' | 'duplicate' | 'name';
  fingerprint: string;
  runId: number | null;
  field?: string | null;
  remoteMessage?: string | null;
  contactId?: string | null;
  otherPatientId?: number | null;
  localName?: string | null;
  remoteName?: string | null;
}

/** Records (or refreshes) the patient's open issue of this kind. */
export async function recordIssue(db: Knex, issue: IssueInput): Promise<void> {
  await db.raw(
    `INSERT INTO ghl_sync_issues
       (patient_id, kind, fingerprint, run_id, field, remote_message, contact_id, other_patient_id, local_name, remote_name)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (patient_id, kind) WHERE status = 'open' DO UPDATE SET
       fingerprint = EXCLUDED.fingerprint, run_id = EXCLUDED.run_id, field = EXCLUDED.field,
       remote_message = EXCLUDED.remote_message, contact_id = EXCLUDED.contact_id,
       other_patient_id = EXCLUDED.other_patient_id, local_name = EXCLUDED.local_name,
       remote_name = EXCLUDED.remote_name, created_at = now()`,
    [
      issue.patientId,
      issue.kind,
      issue.fingerprint,
      issue.runId,
      issue.field ?? null,
      issue.remoteMessage ?? null,
      issue.contactId ?? null,
      issue.otherPatientId ?? null,
      issue.localName ?? null,
      issue.remoteName ?? null,
    ],
  );
}

/** Keeps the name both sides had at this sync. */
export async function rememberSyncedName(
  db: Knex,
  patientId: number,
  contactId: string,
  syncedName: string,
): Promise<void> {
  await db.raw(
    `INSERT INTO ghl_contact_state (patient_id, contact_id, synced_name) VALUES (?, ?, ?)
     ON CONFLICT (patient_id) DO UPDATE SET contact_id = EXCLUDED.contact_id,
       synced_name = EXCLUDED.synced_name, synced_at = now()`,
    [patientId, contactId, syncedName],
  );
}

/** Brings one page of contacts in: a few queries plus one write per new or changed patient. */
async function importPage(
  db: Knex,
  runId: number,
  contacts: GhlContact[],
  touched: number[],
  counts: GhlSyncCounts,
): Promise<void> {
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
  const synced = new Map<number, string>();
  if (byGhlId.size > 0) {
    for (const row of await db('ghl_contact_state')
      .whereIn(
        'patient_id',
        [...byGhlId.values()].map((p) => p.id),
      )
      .select('patient_id', 'contact_id', 'synced_name')) {
      const state = row as { patient_id: number; contact_id: string; synced_name: string };
      if (byGhlId.get(state.contact_id)?.id === state.patient_id)
        synced.set(state.patient_id, state.synced_name);
    }
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
      // GoHighLevel is the source of email and phone (an empty value there keeps ours); the
      // name follows whichever side changed it since the last sync.
      const changes: Record<string, string> = {};
      const decision = ghlNameDecision(synced.get(known.id), known.name, contact.name);
      if (decision === 'take_remote') changes.name = contact.name;
      if (contact.email !== '' && contact.email !== known.email.toLowerCase()) changes.email = contact.email;
      if (contact.phone !== '' && contact.phone !== known.phone) changes.phone = contact.phone;
      if (decision === 'conflict') {
        await recordIssue(db, {
          patientId: known.id,
          kind: 'name',
          fingerprint: fingerprint(known),
          runId,
          contactId: contact.ghlId,
          localName: known.name,
          remoteName: contact.name,
        });
        counts.conflicts++;
      }
      if (Object.keys(changes).length > 0) {
        await db('patients')
          .where({ id: known.id })
          .update({ ...changes, updated_at: db.fn.now() });
        touched.push(known.id);
      }
      if (decision === 'take_remote' || (decision === 'same' && synced.get(known.id) !== contact.name))
        await rememberSyncedName(db, known.id, contact.ghlId, contact.name);
      continue;
    }
    const sameEmail = contact.email === '' ? undefined : byEmail.get(contact.email);
    if (sameEmail) {
      // The patient was entered here and exists there too: link them, keep our details. Each
      // side's name counts as unchanged from here on.
      const linked = await db('patients')
        .where({ id: sameEmail.id })
        .whereNull('ghl_id')
        .update({ ghl_id: contact.ghlId });
      if (linked > 0) await rememberSyncedName(db, sameEmail.id, contact.ghlId, contact.name);
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
    if (row) {
      const id = (row as { id: number }).id;
      await rememberSyncedName(db, id, contact.ghlId, contact.name);
      await writeOutbox(db, 'patient.created', { patientId: id });
      touched.push(id);
    }
  }
}

/** Imports every contact of the location. */
export async function importGhlContacts(
  db: Knex,
  client: GhlClient,
  runId: number,
): Promise<{ importedIds: number[]; conflicts: number }> {
  const touched: number[] = [];
  const counts: GhlSyncCounts = { imported: 0, pushed: 0, rejected: 0, conflicts: 0 };
  for await (const page of client.contactPages()) await importPage(db, runId, page, touched, counts);
  const importedIds = [...new Set(touched)];
  await bump(db, runId, { imported: importedIds.length, conflicts: counts.conflicts });
  return { importedIds, conflicts: counts.conflicts };
}

/**
 * Claims up to `limit` patients to push, after `afterId`: no contact yet, a way to reach them,
 * no rejection or skipped conflict for their current details, not claimed by another worker.
 */
/** Patients a worker may claim: not yet linked, reachable, not refused as they stand, not leased. */
const CLAIMABLE_SQL = `p.ghl_id IS NULL AND p.id > ?
       AND (trim(p.email) <> '' OR trim(p.phone) <> '')
       AND NOT EXISTS (
         SELECT 1 FROM ghl_sync_issues i
         WHERE i.patient_id = p.id AND i.kind IN ('rejected', 'duplicate')
           AND i.fingerprint = ${FINGERPRINT_SQL}
           AND (i.status = 'open' OR i.resolution = 'skip'))
       AND NOT EXISTS (SELECT 1 FROM ghl_push_leases l WHERE l.patient_id = p.id AND l.lease_until > now())`;

/** Times a worker claims again after losing every patient it chose to another worker. */
const CLAIM_ATTEMPTS = 5;

async function claimPatients(
  db: Knex,
  worker: string,
  afterId: number,
  limit: number,
): Promise<PatientMatchRow[]> {
  for (let attempt = 1; attempt <= CLAIM_ATTEMPTS; attempt++) {
    const claimed = await db.raw(
      `INSERT INTO ghl_push_leases (patient_id, worker, lease_until)
       SELECT p.id, ?, now() + make_interval(mins => ?)
       FROM patients p
       WHERE ${CLAIMABLE_SQL}
       ORDER BY p.id
       LIMIT ?
       ON CONFLICT (patient_id) DO UPDATE SET worker = EXCLUDED.worker, lease_until = EXCLUDED.lease_until
         WHERE ghl_push_leases.lease_until <= now()
       RETURNING patient_id`,
      [worker, LEASE_MINUTES, afterId, limit],
    );
    const ids = (claimed.rows as { patient_id: number }[]).map((r) => r.patient_id);
    if (ids.length > 0)
      return db<PatientMatchRow>('patients')
        .whereIn('id', ids)
        .orderBy('id')
        .select('id', 'name', 'email', 'phone', 'ghl_id');
    // Nothing claimed: either nothing is left, or another worker leased the same patients between
    // this statement's snapshot and its insert. A new statement sees which.
    const left = await db.raw(`SELECT EXISTS (SELECT 1 FROM patients p WHERE ${CLAIMABLE_SQL}) AS left`, [
      afterId,
    ]);
    if (!(left.rows as { left: boolean }[])[0]?.left) return [];
  }
  return [];
}

type PushResult = 'pushed' | 'rejected' | 'conflict' | 'skipped';

/** Sends one patient, unless its contact would overwrite one that stands for another patient. */
async function pushOne(
  db: Knex,
  client: GhlClient,
  runId: number,
  patient: PatientMatchRow,
): Promise<PushResult> {
  const email = patient.email.trim();
  const phone = patient.phone.trim();
  const print = fingerprint(patient);
  const reach = { ...(email ? { email } : {}), ...(phone ? { phone } : {}) };
  try {
    const match = await client.findDuplicate(reach);
    if (match) {
      const other = await db<PatientMatchRow>('patients')
        .where({ ghl_id: match.id })
        .whereNot({ id: patient.id })
        .first('id');
      if (other) {
        await recordIssue(db, {
          patientId: patient.id,
          kind: 'duplicate',
          fingerprint: print,
          runId,
          contactId: match.id,
          otherPatientId: other.id,
          localName: patient.name,
          remoteName: contactName(match) || null,
        });
        return 'conflict';
      }
    }
    const { contact } = await client.upsertContact({
      ...splitName(patient.name),
      ...reach,
      source: GHL_CONTACT_SOURCE,
    });
    const linked = await db('patients')
      .where({ id: patient.id })
      .whereNull('ghl_id')
      .whereNotExists(db('patients as o').where('o.ghl_id', contact.id))
      .update({ ghl_id: contact.id });
    if (linked === 0) {
      // Another worker linked the same contact to another patient meanwhile.
      const other = await db<PatientMatchRow>('patients')
        .where({ ghl_id: contact.id })
        .whereNot({ id: patient.id })
        .first('id');
      if (!other) return 'skipped';
      await recordIssue(db, {
        patientId: patient.id,
        kind: 'duplicate',
        fingerprint: print,
        runId,
        contactId: contact.id,
        otherPatientId: other.id,
        localName: patient.name,
        remoteName: null,
      });
      return 'conflict';
    }
    await rememberSyncedName(db, patient.id, contact.id, patient.name);
    await db('ghl_sync_issues')
      .where({ patient_id: patient.id, status: 'open' })
      .whereIn('kind', ['rejected', 'duplicate'])
      .update({ status: 'resolved', resolution: 'retried', resolved_at: db.fn.now() });
    return 'pushed';
  } catch (error) {
    if (!(error instanceof GhlError) || error.kind !== 'rejected') throw error;
    await recordIssue(db, {
      patientId: patient.id,
      kind: 'rejected',
      fingerprint: print,
      runId,
      field: error.detail.field ?? 'contact',
      remoteMessage: error.detail.remoteMessage ?? null,
    });
    return 'rejected';
  }
}

/**
 * Pushes the patients that have no contact yet. Several workers (API processes) may run this at
 * once: each claims its own patients, and all share the location's request budget.
 */
export async function pushGhlPatients(
  db: Knex,
  client: GhlClient,
  runId: number,
  options: { worker?: string } = {},
): Promise<{ pushedIds: number[]; rejected: number; conflicts: number }> {
  const worker = options.worker ?? randomUUID();
  const pushedIds: number[] = [];
  let rejected = 0;
  let conflicts = 0;
  let afterId = 0;
  for (;;) {
    const batch = await claimPatients(db, worker, afterId, PUSH_BATCH);
    if (batch.length === 0) break;
    try {
      for (const patient of batch) {
        afterId = Math.max(afterId, patient.id);
        const result = await pushOne(db, client, runId, patient);
        if (result === 'pushed') pushedIds.push(patient.id);
        if (result === 'rejected') rejected++;
        if (result === 'conflict') conflicts++;
        await bump(db, runId, {
          pushed: result === 'pushed' ? 1 : 0,
          rejected: result === 'rejected' ? 1 : 0,
          conflicts: result === 'conflict' ? 1 : 0,
        });
        await db('ghl_push_leases').where({ patient_id: patient.id, worker }).delete();
      }
    } finally {
      await db('ghl_push_leases')
        .whereIn(
          'patient_id',
          batch.map((p) => p.id),
        )
        .where({ worker })
        .delete();
    }
  }
  return { pushedIds, rejected, conflicts };
}

/** A whole sync: import, then push; the run's row records the counts and how it ended. */
export async function runGhlSync(
  db: Knex,
  settings: GhlSettings,
  options: GhlClientOptions & { createdBy?: number | null; runId?: number } = {},
): Promise<GhlSyncOutcome> {
  const runId = options.runId ?? (await startGhlRun(db, options.createdBy ?? null));
  try {
    const client = ghlClient(db, settings, options);
    const imported = await importGhlContacts(db, client, runId);
    const pushed = await pushGhlPatients(db, client, runId);
    await finishGhlRun(db, runId);
    return {
      runId,
      imported: imported.importedIds.length,
      pushed: pushed.pushedIds.length,
      rejected: pushed.rejected,
      conflicts: imported.conflicts + pushed.conflicts,
      importedIds: imported.importedIds,
      pushedIds: pushed.pushedIds,
    };
  } catch (error) {
    await finishGhlRun(db, runId, error);
    throw error;
  }
}
