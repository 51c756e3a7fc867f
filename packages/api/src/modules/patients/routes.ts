import Router from '@koa/router';
import {
  CreatePatientInput,
  operationMessages,
  PatientDuplicateQuery,
  PatientExportInput,
  PatientTableQuery,
  patientMessages,
  todayInTimeZone,
  UpdatePatientInput,
} from '@wellrest/core';
import { can } from '../../http/can.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { notFound } from '../../http/errors.js';
import { idempotent } from '../../http/idempotency.js';
import { inTransaction } from '../../http/transaction.js';
import { validate } from '../../http/validate.js';
import { idParam } from './access.js';
import { patientsCsv } from './csv.js';
import { patientStore } from './store.js';

type With<T> = AppContext & { state: { input: T } };

async function listPatients(ctx: With<PatientTableQuery>): Promise<void> {
  ctx.body = await patientStore(ctx).list(ctx.state.input);
}

async function exportPatients(ctx: With<PatientExportInput>): Promise<void> {
  const patients = await patientStore(ctx).export(ctx.state.input);
  const timeZone = await ctx.services.settings.get('practiceTimeZone', dbOf(ctx));
  const fileName = patientMessages.exportFileName(todayInTimeZone(timeZone));
  ctx.type = 'text/csv; charset=utf-8';
  ctx.set('Content-Disposition', `attachment; filename="${fileName}"`);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = patientsCsv(patients);
}

async function getPatient(ctx: AppContext): Promise<void> {
  const patient = await patientStore(ctx).get(idParam(ctx));
  if (!patient) throw notFound(operationMessages.patientNotFound);
  ctx.body = patient;
}

async function findDuplicates(ctx: With<PatientDuplicateQuery>): Promise<void> {
  ctx.body = await patientStore(ctx).duplicates(ctx.state.input);
}

async function createPatient(ctx: With<CreatePatientInput>): Promise<void> {
  ctx.status = 201;
  ctx.body = await patientStore(ctx).create(ctx.state.input);
}

async function updatePatient(ctx: With<UpdatePatientInput>): Promise<void> {
  const patient = await patientStore(ctx).update(idParam(ctx), ctx.state.input);
  if (!patient) throw notFound(operationMessages.patientNotFound);
  ctx.body = patient;
}

export function patientRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get<{ input: PatientTableQuery }>(
    '/api/patients',
    can('read', 'Patient'),
    validate(PatientTableQuery, 'query'),
    inTransaction,
    listPatients,
  );
  router.post<{ input: CreatePatientInput }>(
    '/api/patients',
    can('create', 'Patient'),
    validate(CreatePatientInput),
    inTransaction,
    idempotent,
    createPatient,
  );
  // A POST so the email address and phone number being checked stay out of URLs and logs.
  router.post<{ input: PatientDuplicateQuery }>(
    '/api/patients/duplicates',
    can('read', 'Patient'),
    validate(PatientDuplicateQuery),
    inTransaction,
    findDuplicates,
  );
  // A POST with the filter in the body: a search term (often a name) stays out of URLs and logs.
  router.post<{ input: PatientExportInput }>(
    '/api/patients/export',
    can('export', 'Patient'),
    validate(PatientExportInput),
    inTransaction,
    exportPatients,
  );
  router.get('/api/patients/:id', can('read', 'Patient'), inTransaction, getPatient);
  router.patch<{ input: UpdatePatientInput }>(
    '/api/patients/:id',
    can('update', 'Patient'),
    validate(UpdatePatientInput),
    inTransaction,
    updatePatient,
  );
  return router;
}
