import type { Knex } from 'knex';
import { SEARCH_DIRECTORY_LOCK } from '../../db/migrations/0508_search_directory.js';
import { perDatabase } from '../../db/per-database.js';
import { readQuietVersion, readVersion, SEARCH_DIRECTORY_VERSION_SQL } from '../../http/data-versions.js';
import { NameIndex } from './name-index.js';
import type { WordCharacters } from './trigrams.js';

// The search directory: what the global search matches by name and contact details (patients'
// names, emails and phones, physicians' names, NPIs and practices, kit labels, whose each
// referral is), kept in each API process and answered there, so that a search leaves PostgreSQL
// only an indexed lookup of the bookings of what it found. Matching follows the SQL it replaces
// exactly (pg_trgm's word similarity, ILIKE, LIKE prefixes); store.ts keeps that SQL for the
// moments the directory cannot be brought up to date.
//
// Kept current by migration 0508: every write of those columns stamps its row with the next value
// of `search_directory_version`, and a deletion advances `search_directory_resets`. A search reads
// both (with the session: http/data-versions.ts); when they moved, the directory reads the rows
// stamped since its last version, or everything after a deletion. It moves to a version only
// when that version was read while the directory lock could be taken exclusively, with no writer
// in flight: every change it counts is then committed and visible to the reads that follow.

/** A version of the directory's data: the two sequences. */
interface Version {
  key: string;
  stamp: number;
  resets: string;
}

export interface DirectoryPatient {
  id: number;
  nameKey: number;
  email: string;
  emailLower: string;
  phoneDigits: string;
  physicianId: number | null;
}

export interface DirectoryPhysician {
  id: number;
  nameKey: number;
  npi: string;
  practice: string | null;
  practiceLower: string;
}

interface PatientRow {
  id: number;
  name: string;
  email: string;
  phone: string;
  physician_id: number | null;
}

interface PhysicianRow {
  id: number;
  name: string;
  npi: string;
  practice: string | null;
}

export interface DirectoryReferral {
  id: number;
  patientId: number;
  physicianId: number;
  status: string;
  urgency: string;
}

interface ReferralRow {
  id: number;
  patient_id: number;
  physician_id: number;
  status: string;
  urgency: string;
}

interface KitRow {
  id: number;
  kit_id: string;
}

/** Lengths of the email beginnings kept: a prefix query reads the longest its length allows. */
const EMAIL_STARTS = [3, 4, 5, 6, 8, 12] as const;

const digitsOf = (text: string) => text.replace(/\D/g, '');

/** Appends `value` to the list under `key`. */
function post<K>(lists: Map<K, number[]>, key: K, value: number): void {
  const list = lists.get(key);
  if (list) list.push(value);
  else lists.set(key, [value]);
}

/** The directory's data at one version. Lists are only appended to; readers check each entry. */
export class DirectoryData {
  readonly patientNames: NameIndex;
  readonly physicianNames: NameIndex;
  readonly patients = new Map<number, DirectoryPatient>();
  readonly physicians = new Map<number, DirectoryPhysician>();
  readonly kits = new Map<number, { label: string; lower: string }>();
  readonly referrals = new Map<number, DirectoryReferral>();
  /** Patient or physician id → ids of the referrals that named them when written. */
  private readonly referralsByPatient = new Map<number, number[]>();
  private readonly referralsByPhysician = new Map<number, number[]>();
  /** Name key → ids of the patients that had that name when written. */
  private readonly patientsByName: number[][] = [];
  private readonly physiciansByName: number[][] = [];
  /** The first EMAIL_STARTS characters of a lower-cased email → patient ids. */
  private readonly emailStarts = new Map<string, number[]>();
  /** Three and four digits of a phone number → patient ids. */
  private readonly phoneDigits = new Map<string, number[]>();

  constructor(words: WordCharacters) {
    this.patientNames = new NameIndex(words);
    this.physicianNames = new NameIndex(words);
  }

  putPatient(row: PatientRow): void {
    const id = Number(row.id);
    const nameKey = this.patientNames.add(row.name);
    const emailLower = row.email.toLowerCase();
    const phoneDigits = digitsOf(row.phone ?? '');
    const before = this.patients.get(id);
    this.patients.set(id, {
      id,
      nameKey,
      email: row.email,
      emailLower,
      phoneDigits,
      physicianId: row.physician_id === null ? null : Number(row.physician_id),
    });
    if (before?.nameKey !== nameKey) {
      const list = this.patientsByName[nameKey];
      if (list) list.push(id);
      else this.patientsByName[nameKey] = [id];
    }
    if (before?.emailLower !== emailLower) {
      for (const length of EMAIL_STARTS)
        if (length <= emailLower.length) post(this.emailStarts, emailLower.slice(0, length), id);
    }
    if (before?.phoneDigits !== phoneDigits) {
      for (const length of [3, 4])
        for (let i = 0; i + length <= phoneDigits.length; i++)
          post(this.phoneDigits, phoneDigits.slice(i, i + length), id);
    }
  }

  putPhysician(row: PhysicianRow): void {
    const id = Number(row.id);
    const nameKey = this.physicianNames.add(row.name);
    const before = this.physicians.get(id);
    this.physicians.set(id, {
      id,
      nameKey,
      npi: row.npi,
      practice: row.practice,
      practiceLower: (row.practice ?? '').toLowerCase(),
    });
    if (before?.nameKey !== nameKey) {
      const list = this.physiciansByName[nameKey];
      if (list) list.push(id);
      else this.physiciansByName[nameKey] = [id];
    }
  }

  putReferral(row: ReferralRow): void {
    const referral: DirectoryReferral = {
      id: Number(row.id),
      patientId: Number(row.patient_id),
      physicianId: Number(row.physician_id),
      status: row.status,
      urgency: row.urgency,
    };
    const before = this.referrals.get(referral.id);
    this.referrals.set(referral.id, referral);
    if (before?.patientId !== referral.patientId)
      post(this.referralsByPatient, referral.patientId, referral.id);
    if (before?.physicianId !== referral.physicianId)
      post(this.referralsByPhysician, referral.physicianId, referral.id);
  }

  /** Referrals of any of these patients or physicians now. */
  referralsOf(patientIds: readonly number[], physicianIds: readonly number[], into: Set<number>): void {
    for (const id of patientIds)
      for (const referralId of this.referralsByPatient.get(id) ?? [])
        if (this.referrals.get(referralId)?.patientId === id) into.add(referralId);
    for (const id of physicianIds)
      for (const referralId of this.referralsByPhysician.get(id) ?? [])
        if (this.referrals.get(referralId)?.physicianId === id) into.add(referralId);
  }

  putKit(row: KitRow): void {
    this.kits.set(Number(row.id), { label: row.kit_id, lower: row.kit_id.toLowerCase() });
  }

  patientName(id: number): string | undefined {
    const patient = this.patients.get(id);
    return patient ? this.patientNames.names[patient.nameKey] : undefined;
  }

  physicianName(id: number): string | undefined {
    const physician = this.physicians.get(id);
    return physician ? this.physicianNames.names[physician.nameKey] : undefined;
  }

  /** The patients named `nameKey` now, by id. */
  patientIdsNamed(nameKey: number): number[] {
    const ids = (this.patientsByName[nameKey] ?? []).filter(
      (id) => this.patients.get(id)?.nameKey === nameKey,
    );
    return ids.length > 1 ? [...new Set(ids)].sort((a, b) => a - b) : ids;
  }

  /** Physicians whose name is one of `nameKeys` now. */
  physiciansNamed(nameKeys: Iterable<number>, into: Set<number>): void {
    for (const key of nameKeys)
      for (const id of this.physiciansByName[key] ?? [])
        if (this.physicians.get(id)?.nameKey === key) into.add(id);
  }

  /** Patients whose lower-cased email starts with `lowered`. */
  patientsByEmailPrefix(lowered: string, into: Set<number>): void {
    if (lowered.length >= 3) {
      const start = lowered.slice(
        0,
        EMAIL_STARTS.findLast((length) => length <= lowered.length),
      );
      for (const id of this.emailStarts.get(start) ?? [])
        if (this.patients.get(id)?.emailLower.startsWith(lowered)) into.add(id);
      return;
    }
    for (const patient of this.patients.values())
      if (patient.emailLower.startsWith(lowered)) into.add(patient.id);
  }

  /** Patients whose phone number's digits contain `digits` (three or more). */
  patientsByPhoneDigits(digits: string, into: Set<number>): void {
    let rarest: number[] | undefined;
    const length = digits.length >= 4 ? 4 : 3;
    for (let i = 0; i + length <= digits.length; i++) {
      const list = this.phoneDigits.get(digits.slice(i, i + length));
      if (!list) return;
      if (!rarest || list.length < rarest.length) rarest = list;
    }
    for (const id of rarest ?? []) if (this.patients.get(id)?.phoneDigits.includes(digits)) into.add(id);
  }
}

/** A version as SEARCH_DIRECTORY_VERSION_SQL spells it: `stamp:called/resets:called`. */
function parseVersion(text: string): Version {
  const [stamp = '', resets = ''] = text.split('/');
  const [value, called] = stamp.split(':');
  return { key: text, stamp: called === 'true' ? Number(value) : 0, resets };
}

/** The directory's version now; with `quietly`, only when no change is in flight, else null. */
async function directoryVersion(knex: Knex, quietly: boolean): Promise<Version | null> {
  const version = quietly
    ? await readQuietVersion(knex, SEARCH_DIRECTORY_LOCK, SEARCH_DIRECTORY_VERSION_SQL)
    : await readVersion(knex, SEARCH_DIRECTORY_VERSION_SQL);
  return version === null ? null : parseVersion(version);
}

/** Whether letters beyond ASCII make words for this database's pg_trgm (its character classes). */
async function wordCharacters(knex: Knex): Promise<WordCharacters> {
  const result = await knex.raw("SELECT coalesce(array_length(show_trgm('éé'), 1), 0) AS n");
  return Number((result.rows as { n: number }[])[0]?.n ?? 0) > 0 ? 'unicode' : 'ascii';
}

/**
 * One process's directory over one database. `current()` answers the data at the database's
 * present version, or null while a change is in flight (the caller then asks PostgreSQL).
 */
export class SearchDirectory {
  private data: DirectoryData | undefined;
  private version: Version | undefined;
  private updating: Promise<void> | undefined;

  constructor(private readonly knex: Knex) {}

  /** `version`: the directory's version read at the start of the request, when it was. */
  async current(version?: string): Promise<DirectoryData | null> {
    const now = version === undefined ? await directoryVersion(this.knex, false) : parseVersion(version);
    if (now && this.data && this.version?.key === now.key) return this.data;
    // Requests arriving together share one update.
    if (!this.updating) {
      this.updating = this.update().finally(() => {
        this.updating = undefined;
      });
    }
    await this.updating;
    // The directory is at a version read after `now`: it has every change `now` counts.
    return this.data &&
      this.version &&
      now &&
      this.version.stamp >= now.stamp &&
      this.version.resets === now.resets
      ? this.data
      : null;
  }

  private async update(): Promise<void> {
    const quiet = await directoryVersion(this.knex, true);
    if (!quiet) return;
    const since = this.data && this.version?.resets === quiet.resets ? this.version.stamp : null;
    const data =
      since === null ? new DirectoryData(await wordCharacters(this.knex)) : (this.data as DirectoryData);
    const changed = (table: string) => {
      const query = this.knex(table);
      if (since !== null) query.where('directory_seq', '>', since);
      return query;
    };
    const [patients, physicians, kits, referrals] = await Promise.all([
      changed('patients').select('id', 'name', 'email', 'phone', 'physician_id') as Promise<PatientRow[]>,
      changed('physicians').select('id', 'name', 'npi', 'practice') as Promise<PhysicianRow[]>,
      changed('kits').select('id', 'kit_id') as Promise<KitRow[]>,
      changed('referrals').select('id', 'patient_id', 'physician_id', 'status', 'urgency') as Promise<
        ReferralRow[]
      >,
    ]);
    for (const row of patients) data.putPatient(row);
    for (const row of physicians) data.putPhysician(row);
    for (const row of kits) data.putKit(row);
    for (const row of referrals) data.putReferral(row);
    this.data = data;
    this.version = quiet;
  }
}

/** The directory of the database behind `knex`, one per process. */
export const searchDirectoryFor = perDatabase((knex: Knex) => new SearchDirectory(knex));
