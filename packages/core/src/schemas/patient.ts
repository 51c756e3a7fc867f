import { z } from 'zod';
import { DEFAULT_LEAD_SOURCE } from '../constants.js';
import { Gender, LeadSource } from '../enums.js';
import { messages } from '../messages.js';
import { Id, IsoDate, optionalText, requiredText } from './common.js';

const email = requiredText(messages.patient.emailRequired, 254).pipe(
  z.email({ error: messages.patient.emailInvalid }),
);

/** Every patient field a user can write (spec §3). name, email and phone are required on creation. */
const patientFields = {
  name: requiredText(messages.patient.nameRequired, 200),
  email,
  phone: requiredText(messages.patient.phoneRequired, 40),
  dateOfBirth: IsoDate.nullish(),
  gender: Gender.nullish(),
  address: optionalText(300),
  city: optionalText(120),
  state: optionalText(60),
  zipCode: optionalText(20),
  emergencyContact: optionalText(200),
  emergencyPhone: optionalText(40),
  insuranceProvider: optionalText(200),
  insurancePolicyNumber: optionalText(100),
  referringPhysician: optionalText(200),
  medicalHistory: optionalText(10_000),
  medications: optionalText(10_000),
  ghlId: optionalText(100),
  /** The physician the patient belongs to, when one referred them: scopes what a physician may read. */
  physicianId: Id.nullish(),
};

export const Patient = z.object({
  id: Id,
  ...patientFields,
  leadSource: LeadSource.default(DEFAULT_LEAD_SOURCE),
});
export type Patient = z.infer<typeof Patient>;

export const CreatePatientInput = z.object({
  ...patientFields,
  leadSource: LeadSource.default(DEFAULT_LEAD_SOURCE),
});
export type CreatePatientInput = z.infer<typeof CreatePatientInput>;

/** Any subset of the patient fields. No defaults: an omitted field stays as it is. */
export const UpdatePatientInput = z.object({ ...patientFields, leadSource: LeadSource.optional() }).partial();
export type UpdatePatientInput = z.infer<typeof UpdatePatientInput>;
