import { z } from 'zod';
import { type Gender, LeadSource } from './enums.js';
import { PAGE_SIZE_DEFAULT, PatientListQuery } from './operations.js';
import type { Patient } from './schemas/patient.js';

// The patients table and its CSV export: which columns sort on the server, the page sizes the
// table offers (the large ones are rendered virtualised), and the export's columns and strings.

/** Columns the patients table sorts by on the server. */
export const PATIENT_SORT_FIELDS = [
  'name',
  'email',
  'phone',
  'dateOfBirth',
  'city',
  'leadSource',
  'createdAt',
  'id',
] as const;
export type PatientSortField = (typeof PATIENT_SORT_FIELDS)[number];

/** A sort field ascending, or with a leading '-' descending. */
export const PATIENT_TABLE_SORTS = PATIENT_SORT_FIELDS.flatMap((field) => [field, `-${field}`] as const);
export type PatientTableSort = PatientSortField | `-${PatientSortField}`;

/** Page sizes the table offers; past 100 rows the table renders only the rows in view. */
export const PATIENT_PAGE_SIZES = [PAGE_SIZE_DEFAULT, 50, 100, 250, 500] as const;
export const PATIENT_PAGE_SIZE_MAX = 500;
/** At this many rows on one page the table switches to virtualised rendering. */
export const PATIENT_VIRTUALISE_AFTER = 100;

const patientSort = z.enum(PATIENT_TABLE_SORTS as [PatientTableSort, ...PatientTableSort[]]);

/**
 * `GET /api/patients`: everything PatientListQuery takes, plus more sort columns, larger pages
 * and a lead-source filter. Without `page` the answer is still the plain array.
 */
export const PatientTableQuery = PatientListQuery.extend({
  pageSize: z.coerce.number().int().min(1).max(PATIENT_PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
  sort: patientSort.default('name'),
  leadSource: LeadSource.optional(),
});
export type PatientTableQuery = z.infer<typeof PatientTableQuery>;

/**
 * `POST /api/patients/export`: the table's current filter. Sent as a JSON body, not a query
 * string, because a search term is often a patient's name or phone number.
 */
export const PatientExportInput = PatientTableQuery.pick({ q: true, sort: true, leadSource: true });
export type PatientExportInput = z.infer<typeof PatientExportInput>;

/** The export's columns, in order, with their header text. */
export const PATIENT_EXPORT_COLUMNS: readonly (readonly [keyof Patient, string])[] = [
  ['id', 'ID'],
  ['name', 'Name'],
  ['email', 'Email'],
  ['phone', 'Phone'],
  ['dateOfBirth', 'Date of birth'],
  ['gender', 'Gender'],
  ['address', 'Address'],
  ['city', 'City'],
  ['state', 'State'],
  ['zipCode', 'ZIP code'],
  ['emergencyContact', 'Emergency contact'],
  ['emergencyPhone', 'Emergency phone'],
  ['insuranceProvider', 'Insurance provider'],
  ['insurancePolicyNumber', 'Insurance policy number'],
  ['referringPhysician', 'Referring physician'],
  ['medicalHistory', 'Medical history'],
  ['medications', 'Medications'],
  ['leadSource', 'Lead source'],
  ['ghlId', 'GHL ID'],
];

/** The header row of the export, as the file carries it. */
export const PATIENT_EXPORT_HEADER = PATIENT_EXPORT_COLUMNS.map(([, header]) => header).join(',');

/** Labels of the gender values (spec §3). */
export const GENDER_LABELS: Readonly<Record<Gender, string>> = {
  male: 'Male',
  female: 'Female',
  other: 'Other',
  'prefer-not-to-say': 'Prefer not to say',
};

/** What the patients screen says. */
export const patientMessages = {
  title: 'Patients',
  description: 'Everyone the practice has booked or is about to book.',
  searchLabel: 'Search patients',
  searchPlaceholder: 'Name, email or phone',
  noPatients: 'No patients yet',
  noMatches: 'No patients match this search',
  newPatient: 'New Patient',
  editPatient: 'Edit Patient',
  createTitle: 'New patient',
  editTitle: 'Edit patient',
  save: 'Save patient',
  saving: 'Saving...',
  created: 'Patient created',
  updated: 'Patient updated',
  saveFailed: 'Could not save the patient',
  fixFields: 'Please correct the highlighted fields.',
  exportCsv: 'Export CSV',
  exporting: 'Exporting...',
  exportFailed: 'Export failed',
  exportFileName: (date: string): string => `patients-${date}.csv`,
  rowsPerPage: 'Rows per page',
  allLeadSources: 'All lead sources',
  leadSourceFilter: 'Lead source',
  showing: (from: number, to: number, total: number): string =>
    total === 0 ? 'No patients' : `${from}–${to} of ${total.toLocaleString('en-US')}`,
  pageOf: (page: number, pages: number): string => `Page ${page} of ${pages}`,
  bookings: 'Bookings',
  noBookings: 'No bookings for this patient',
  notRecorded: 'Not recorded',
} as const;
