import Router from '@koa/router';
import { CreatePatientInput, operationMessages, PatientListQuery, UpdatePatientInput } from '@wellrest/core';
import { can } from '../../http/can.js';
import type { AppContext, AppContextExtension, AppState } from '../../http/context.js';
import { notFound } from '../../http/errors.js';
import { inTransaction } from '../../http/transaction.js';
import { validate } from '../../http/validate.js';
import { idParam } from './access.js';
import { patientStore } from './store.js';

type With<T> = AppContext & { state: { input: T } };

async function listPatients(ctx: With<PatientListQuery>): Promise<void> {
  ctx.body = await patientStore(ctx).list(ctx.state.input);
}

async function getPatient(ctx: AppContext): Promise<void> {
  const patient = await patientStore(ctx).get(idParam(ctx));
  if (!patient) throw notFound(operationMessages.patientNotFound);
  ctx.body = patient;
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
  router.get<{ input: PatientListQuery }>(
    '/api/patients',
    can('read', 'Patient'),
    validate(PatientListQuery, 'query'),
    inTransaction,
    listPatients,
  );
  router.post<{ input: CreatePatientInput }>(
    '/api/patients',
    can('create', 'Patient'),
    validate(CreatePatientInput),
    inTransaction,
    createPatient,
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
