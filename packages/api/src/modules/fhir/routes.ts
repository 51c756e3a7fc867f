import Router from '@koa/router';
import type { CapabilityStatement, OperationOutcome, Resource } from '@medplum/fhirtypes';
import type { SubjectName } from '@wellrest/core';
import type { Knex } from 'knex';
import type { Middleware } from 'koa';
import type { z } from 'zod';
import { audit } from '../../audit/audit.js';
import { can } from '../../http/can.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { notFound } from '../../http/errors.js';
import { idParam } from '../../http/params.js';
import { isFhirPath } from '../../http/paths.js';
import { validate } from '../../http/validate.js';
import { version } from '../../version.js';
import { applyScope, type ScopeColumns, scopeOf } from '../patients/access.js';
import { auditDenials, denied } from '../referrals/access.js';
import {
  type BookingRow,
  DEVICE_REQUEST_STATUS,
  deviceRequestResource,
  diagnosticReportResource,
  type InterpretationRow,
  type PatientRow,
  type PhysicianRow,
  patientResource,
  practitionerResource,
  type ReferralRow,
  SERVICE_REQUEST_STATUS,
  SYSTEMS,
  serviceRequestResource,
} from './resources.js';
import {
  DeviceRequestSearch,
  DiagnosticReportSearch,
  FHIR_COUNT_DEFAULT,
  idList,
  PatientSearch,
  PractitionerSearch,
  parseToken,
  referencedId,
  type SearchCommon,
  ServiceRequestSearch,
  searchset,
  whereDates,
} from './search.js';

// The read-only FHIR R4 API (/fhir/R4): the CapabilityStatement, and read + search of patients,
// physicians (Practitioner), referrals (ServiceRequest), kit loans (DeviceRequest) and signed
// interpretations (DiagnosticReport with contained Observations). The same session, permissions
// and row scopes as the console's API (a physician sees only their own patients' records), and
// every read is audited. Errors are OperationOutcomes.

export const FHIR_BASE = '/fhir/R4';
const FHIR_JSON = 'application/fhir+json; charset=utf-8';

interface SearchParamDoc {
  name: string;
  type: 'token' | 'string' | 'date' | 'reference' | 'number';
  documentation: string;
}

interface ResourceType<Row, Q extends SearchCommon> {
  type: 'Patient' | 'Practitioner' | 'ServiceRequest' | 'DeviceRequest' | 'DiagnosticReport';
  /** The console's permission subject whose `read` rule (and row scope) applies. */
  subject: SubjectName;
  scope: ScopeColumns;
  /** The rows, joined as the resource needs them. */
  rows(db: Knex): Knex.QueryBuilder;
  idColumn: string;
  /** Narrows by `identifier`; false when the system is not one of this type's. */
  identifier(query: Knex.QueryBuilder, system: string | undefined, value: string): boolean;
  filter(query: Knex.QueryBuilder, input: Q): void;
  search: z.ZodType<Q>;
  params: SearchParamDoc[];
  resource(row: Row): Resource;
}

const COMMON_PARAMS: SearchParamDoc[] = [
  { name: '_id', type: 'token', documentation: 'The logical id, or a comma-separated list of them' },
  { name: '_count', type: 'number', documentation: `Page size (default ${FHIR_COUNT_DEFAULT}, at most 100)` },
  { name: '_offset', type: 'number', documentation: 'How many matches to skip (the paging links set it)' },
];

const patientType: ResourceType<PatientRow, z.infer<typeof PatientSearch>> = {
  type: 'Patient',
  subject: 'Patient',
  scope: { physicianId: 'patients.physician_id' },
  rows: (db) => db('patients').select('patients.*'),
  idColumn: 'patients.id',
  identifier(query, system, value) {
    if (system !== undefined && system !== SYSTEMS.patient) return false;
    if (!/^[1-9]\d{0,9}$/.test(value)) return false;
    query.where('patients.id', Number(value));
    return true;
  },
  filter(query, input) {
    if (input.name) query.whereILike('patients.name', `%${input.name.replace(/[\\%_]/g, '\\$&')}%`);
    if (input.birthdate) whereDates(query, 'patients.date_of_birth', input.birthdate, true);
  },
  search: PatientSearch,
  params: [
    { name: 'identifier', type: 'token', documentation: `${SYSTEMS.patient}|<id>` },
    { name: 'name', type: 'string', documentation: 'Part of the name' },
    { name: 'birthdate', type: 'date', documentation: 'Date of birth' },
  ],
  resource: patientResource,
};

const practitionerType: ResourceType<PhysicianRow, z.infer<typeof PractitionerSearch>> = {
  type: 'Practitioner',
  subject: 'Physician',
  scope: { id: 'physicians.id' },
  rows: (db) => db('physicians').select('physicians.*'),
  idColumn: 'physicians.id',
  identifier(query, system, value) {
    if (system !== undefined && system !== SYSTEMS.npi) return false;
    query.where('physicians.npi', value);
    return true;
  },
  filter(query, input) {
    if (input.name) query.whereILike('physicians.name', `%${input.name.replace(/[\\%_]/g, '\\$&')}%`);
  },
  search: PractitionerSearch,
  params: [
    { name: 'identifier', type: 'token', documentation: `The NPI: ${SYSTEMS.npi}|<npi>` },
    { name: 'name', type: 'string', documentation: 'Part of the name' },
  ],
  resource: practitionerResource,
};

function statusesFor(map: Record<string, string | undefined>, fhirStatus: string): string[] {
  return Object.entries(map)
    .filter(([, mapped]) => mapped === fhirStatus)
    .map(([own]) => own);
}

const serviceRequestType: ResourceType<ReferralRow, z.infer<typeof ServiceRequestSearch>> = {
  type: 'ServiceRequest',
  subject: 'Referral',
  scope: { physicianId: 'referrals.physician_id' },
  rows: (db) =>
    db('referrals')
      .join('physicians', 'physicians.id', 'referrals.physician_id')
      .leftJoin('patients', 'patients.id', 'referrals.patient_id')
      .select('referrals.*', 'physicians.name as physician_name', 'patients.name as patient_name'),
  idColumn: 'referrals.id',
  identifier(query, system, value) {
    if (system !== undefined && system !== SYSTEMS.referral) return false;
    query.where('referrals.request_id', value);
    return true;
  },
  filter(query, input) {
    if (input.patient) query.where('referrals.patient_id', referencedId(input.patient));
    if (input.requester) query.where('referrals.physician_id', referencedId(input.requester));
    if (input.status) query.whereIn('referrals.status', statusesFor(SERVICE_REQUEST_STATUS, input.status));
    if (input.date) whereDates(query, 'referrals.created_at', input.date, false);
  },
  search: ServiceRequestSearch,
  params: [
    {
      name: 'identifier',
      type: 'token',
      documentation: `The referral's request id: ${SYSTEMS.referral}|<id>`,
    },
    { name: 'patient', type: 'reference', documentation: 'Patient/<id>' },
    { name: 'requester', type: 'reference', documentation: 'Practitioner/<id>: the referring physician' },
    { name: 'status', type: 'token', documentation: 'active, completed or revoked' },
    { name: 'date', type: 'date', documentation: 'When the referral was received (authoredOn)' },
  ],
  resource: serviceRequestResource,
};

const deviceRequestType: ResourceType<BookingRow, z.infer<typeof DeviceRequestSearch>> = {
  type: 'DeviceRequest',
  subject: 'Booking',
  scope: { physicianId: 'patients.physician_id' },
  rows: (db) =>
    db('bookings')
      .join('patients', 'patients.id', 'bookings.patient_id')
      .leftJoin('kits', 'kits.id', 'bookings.kit_id')
      .select(
        'bookings.*',
        'patients.name as patient_name',
        'kits.kit_id as kit_label',
        db.raw('(select min(r.id) from referrals r where r.booking_id = bookings.id) as referral_id'),
      ),
  idColumn: 'bookings.id',
  identifier(query, system, value) {
    if (system !== undefined && system !== SYSTEMS.booking) return false;
    if (!/^[1-9]\d{0,9}$/.test(value)) return false;
    query.where('bookings.id', Number(value));
    return true;
  },
  filter(query, input) {
    if (input.patient) query.where('bookings.patient_id', referencedId(input.patient));
    if (input.status) query.whereIn('bookings.status', statusesFor(DEVICE_REQUEST_STATUS, input.status));
    if (input.date) whereDates(query, 'bookings.start_date', input.date, true);
  },
  search: DeviceRequestSearch,
  params: [
    { name: 'identifier', type: 'token', documentation: `${SYSTEMS.booking}|<booking id>` },
    { name: 'patient', type: 'reference', documentation: 'Patient/<id>' },
    { name: 'status', type: 'token', documentation: 'draft, active, completed or revoked' },
    { name: 'date', type: 'date', documentation: 'The first night of the loan' },
  ],
  resource: deviceRequestResource,
};

const diagnosticReportType: ResourceType<InterpretationRow, z.infer<typeof DiagnosticReportSearch>> = {
  type: 'DiagnosticReport',
  // A signed report belongs to the referral it answers: its referring physician reads it.
  subject: 'Referral',
  scope: { physicianId: 'referrals.physician_id' },
  rows: (db) =>
    db('interpretations')
      .join('referrals', 'referrals.id', 'interpretations.referral_id')
      .leftJoin('patients', 'patients.id', 'referrals.patient_id')
      .leftJoin('users as reader', 'reader.id', 'interpretations.signed_by')
      .whereNotNull('interpretations.signed_at')
      .select(
        'interpretations.*',
        'referrals.patient_id',
        'referrals.physician_id',
        'patients.name as patient_name',
        'reader.display_name as reader_name',
        db.raw(
          '(select count(*) from interpretation_addenda a where a.interpretation_id = interpretations.id) as addenda',
        ),
      ),
  idColumn: 'interpretations.id',
  identifier(query, system, value) {
    if (system !== undefined && system !== SYSTEMS.interpretation) return false;
    if (!/^[1-9]\d{0,9}$/.test(value)) return false;
    query.where('interpretations.id', Number(value));
    return true;
  },
  filter(query, input) {
    if (input.patient) query.where('referrals.patient_id', referencedId(input.patient));
    if (input.date) whereDates(query, 'interpretations.signed_at', input.date, false);
  },
  search: DiagnosticReportSearch,
  params: [
    { name: 'identifier', type: 'token', documentation: `${SYSTEMS.interpretation}|<id>` },
    { name: 'patient', type: 'reference', documentation: 'Patient/<id>' },
    { name: 'date', type: 'date', documentation: 'When the interpretation was signed' },
  ],
  resource: diagnosticReportResource,
};

// biome-ignore lint/suspicious/noExplicitAny: one list of differently typed resource definitions.
const RESOURCE_TYPES: ResourceType<any, any>[] = [
  patientType,
  practitionerType,
  serviceRequestType,
  deviceRequestType,
  diagnosticReportType,
];

/** Where links in answers point: the public origin when configured, else the request's. */
function baseUrl(ctx: AppContext): string {
  // Koa 3's ctx.origin echoes the Origin header, so the server's own origin is built here.
  const origin = ctx.services.config.publicUrl?.replace(/\/$/, '') || `${ctx.protocol}://${ctx.host}`;
  return `${origin}${FHIR_BASE}`;
}

function answer(ctx: AppContext, resource: Resource): void {
  ctx.body = resource;
  ctx.type = FHIR_JSON;
}

/** The audit trail names the FHIR type and the records' ids, never their contents. */
const entityTypeOf = (type: string) => `fhir_${type.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase()}`;

function searchHandler<Row, Q extends SearchCommon>(definition: ResourceType<Row, Q>) {
  return async (ctx: AppContext & { state: { input: Q } }) => {
    const db = dbOf(ctx);
    const input = ctx.state.input;
    const count = input._count ?? FHIR_COUNT_DEFAULT;
    const offset = input._offset ?? 0;
    const query = definition.rows(db);
    applyScope(query, scopeOf(ctx, 'read', definition.subject), definition.scope);
    if (input._id) query.whereIn(definition.idColumn, idList(input._id));
    if (input.identifier) {
      const { system, value } = parseToken(input.identifier);
      if (!definition.identifier(query, system, value)) query.whereRaw('false');
    }
    definition.filter(query, input);
    const [counted] = await db.from(query.clone().as('matches')).count<{ count: string }[]>('* as count');
    const total = Number(counted?.count ?? 0);
    const rows =
      count === 0
        ? []
        : ((await query.orderBy(definition.idColumn, 'asc').limit(count).offset(offset)) as Row[]);
    const resources = rows.map((row) => definition.resource(row));
    await audit(db, ctx, {
      action: 'fhir.search',
      outcome: 'success',
      entityType: entityTypeOf(definition.type),
      entityId: resources.length === 1 ? (resources[0]?.id ?? null) : null,
      details: {
        count: resources.length,
        total,
        ids: resources.map((resource) => resource.id).join(','),
      },
    });
    answer(
      ctx,
      searchset({
        base: baseUrl(ctx),
        type: definition.type,
        params: input as Record<string, unknown>,
        resources,
        total,
        count,
        offset,
      }),
    );
  };
}

function readHandler<Row>(definition: ResourceType<Row, SearchCommon>) {
  return async (ctx: AppContext) => {
    const db = dbOf(ctx);
    const id = idParam(ctx);
    const query = definition.rows(db).where(definition.idColumn, id);
    const unscoped = query.clone();
    applyScope(query, scopeOf(ctx, 'read', definition.subject), definition.scope);
    const row = (await query.first()) as Row | undefined;
    if (!row) {
      // Out of reach answers as missing does; the attempt is recorded.
      if (await unscoped.first())
        throw denied({ action: 'fhir.read', entityType: entityTypeOf(definition.type), entityId: id });
      throw notFound();
    }
    const resource = definition.resource(row);
    await audit(db, ctx, {
      action: 'fhir.read',
      outcome: 'success',
      entityType: entityTypeOf(definition.type),
      entityId: id,
    });
    answer(ctx, resource);
  };
}

/** What this server offers, for clients that discover it (`GET /fhir/R4/metadata`). */
export function capabilityStatement(base: string): CapabilityStatement {
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: '2026-11-26',
    kind: 'instance',
    software: { name: 'Wellrest', version },
    implementation: { description: 'Wellrest read-only FHIR R4 API', url: base },
    fhirVersion: '4.0.1',
    format: ['application/fhir+json', 'json'],
    rest: [
      {
        mode: 'server',
        documentation:
          'Read-only. Sign in through POST /api/auth/login and send the session cookie; a physician sees only their own patients’ records.',
        security: {
          description: 'The Wellrest session cookie (wellrest_session); every read is audited.',
        },
        resource: RESOURCE_TYPES.map((definition) => ({
          type: definition.type,
          interaction: [{ code: 'read' }, { code: 'search-type' }],
          searchParam: [...COMMON_PARAMS, ...definition.params].map((param) => ({
            name: param.name,
            type: param.type,
            documentation: param.documentation,
          })),
        })),
      },
    ],
  };
}

const ISSUE_CODES: Record<number, NonNullable<OperationOutcome['issue']>[number]['code']> = {
  400: 'invalid',
  401: 'login',
  403: 'forbidden',
  404: 'not-found',
  405: 'not-supported',
  406: 'not-supported',
  409: 'conflict',
  413: 'too-costly',
  429: 'throttled',
  503: 'transient',
};

/**
 * Answers every error under /fhir as an OperationOutcome. Mounted outside the error handler, so
 * it rewrites the handler's JSON error (and the router's bodiless 404 and 405) after the fact.
 */
export const fhirOutcomes: Middleware<AppState, AppContextExtension> = async (ctx, next) => {
  if (!isFhirPath(ctx.path)) return next();
  await next();
  if (ctx.status < 400 && ctx.body != null) return;
  const status = ctx.body == null && ctx.status < 400 ? 404 : ctx.status;
  const body = (ctx.body ?? {}) as { error?: unknown; fields?: Record<string, string> };
  const message =
    typeof body.error === 'string' ? body.error : status === 404 ? 'Not found' : 'Request refused';
  const fields = Object.entries(body.fields ?? {});
  const code = ISSUE_CODES[status] ?? 'exception';
  const outcome: OperationOutcome = {
    resourceType: 'OperationOutcome',
    issue:
      fields.length > 0
        ? fields.map(([field, diagnostics]) => ({
            severity: 'error',
            code,
            diagnostics,
            expression: [field],
          }))
        : [{ severity: 'error', code, diagnostics: message }],
  };
  ctx.status = status;
  ctx.body = outcome;
  ctx.type = FHIR_JSON;
};

export function fhirRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  // The CapabilityStatement describes the server, not anyone's data: open to all, as FHIR expects.
  router.get(`${FHIR_BASE}/metadata`, (ctx: AppContext) => answer(ctx, capabilityStatement(baseUrl(ctx))));
  for (const definition of RESOURCE_TYPES) {
    router.get(
      `${FHIR_BASE}/${definition.type}`,
      can('read', definition.subject),
      validate(definition.search, 'query'),
      searchHandler(definition),
    );
    router.get(
      `${FHIR_BASE}/${definition.type}/:id`,
      can('read', definition.subject),
      auditDenials,
      readHandler(definition),
    );
  }
  return router;
}
