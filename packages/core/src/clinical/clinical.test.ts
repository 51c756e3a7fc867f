import { describe, expect, it } from 'vitest';
import { isValidNpi } from '../public.js';
import { clinicalMessages as m } from './messages.js';
import {
  CreateReferralInput,
  canTransition,
  InterpretationFinal,
  isIcd10Code,
  LinkPhysicianInput,
  manualTransitions,
  PhysicianInput,
  parseIcd10List,
  REFERRAL_STATUSES,
  ReferralTransitionInput,
  severityOf,
} from './model.js';
import { SlaDefinitionInput } from './sla.js';

function fieldError(result: {
  success: boolean;
  error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
}) {
  // The first message per field, as the API answers it.
  const fields: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) fields[issue.path.join('.')] ??= issue.message;
  return fields;
}

describe('physician records', () => {
  it('accepts an NPI whose check digit is the Luhn digit over the 80840 prefix', () => {
    expect(isValidNpi('1234567893')).toBe(true);
    expect(isValidNpi('1234567890')).toBe(false);
    expect(isValidNpi('123456789')).toBe(false);
    expect(isValidNpi('12345678931')).toBe(false);
  });

  it('refuses a bad NPI with a field message and fills defaults', () => {
    const bad = PhysicianInput.safeParse({ name: 'Dr Ada Stone', npi: '1234567890' });
    expect(fieldError(bad)).toEqual({ npi: m.npiInvalid });
    const good = PhysicianInput.parse({ name: ' Dr Ada Stone ', npi: '1234567893' });
    expect(good).toMatchObject({ name: 'Dr Ada Stone', status: 'active', email: '', fax: '' });
    expect(fieldError(PhysicianInput.safeParse({ name: '', npi: '' }))).toEqual({
      name: m.physicianNameRequired,
      npi: m.npiRequired,
    });
    expect(fieldError(PhysicianInput.safeParse({ name: 'A', npi: '1234567893', email: 'nope' }))).toEqual({
      email: m.emailInvalid,
    });
  });

  it('links a user to a record or unlinks it with null', () => {
    expect(LinkPhysicianInput.parse({ physicianId: 4 })).toEqual({ physicianId: 4 });
    expect(LinkPhysicianInput.parse({ physicianId: null })).toEqual({ physicianId: null });
    expect(LinkPhysicianInput.safeParse({ physicianId: -1 }).success).toBe(false);
  });
});

describe('referrals', () => {
  it('checks the shape of ICD-10 codes', () => {
    for (const code of ['G47.33', 'G47.3', 'R06.83', 'E66.01', 'G47', 'Z99.89', 'S72.001A']) {
      expect(isIcd10Code(code), code).toBe(true);
    }
    for (const code of ['G4733', 'U07.1X', '47.33', 'G47.', 'g47.33', 'G47.33333', 'GG7.3']) {
      expect(isIcd10Code(code), code).toBe(false);
    }
    expect(parseIcd10List(' g47.33, R06.83;e66.01 ')).toEqual(['G47.33', 'R06.83', 'E66.01']);
  });

  it('needs exactly one of an existing or a new patient, and valid codes', () => {
    const base = { reason: 'Loud snoring and witnessed apneas', urgency: 'routine' };
    expect(fieldError(CreateReferralInput.safeParse(base))).toEqual({ patientId: m.patientRequired });
    expect(
      fieldError(
        CreateReferralInput.safeParse({
          ...base,
          patientId: 1,
          newPatient: { name: 'A', email: 'a@example.test', phone: '1' },
        }),
      ),
    ).toEqual({ patientId: m.patientRequired });
    const parsed = CreateReferralInput.parse({ ...base, patientId: 3, icd10Codes: ['g47.33'] });
    expect(parsed.icd10Codes).toEqual(['G47.33']);
    expect(fieldError(CreateReferralInput.safeParse({ ...base, patientId: 3, icd10Codes: ['X'] }))).toEqual({
      'icd10Codes.0': m.icd10Invalid('X'),
    });
    expect(fieldError(CreateReferralInput.safeParse({ ...base, patientId: 3, reason: 'short' }))).toEqual({
      reason: m.reasonRequired,
    });
  });

  it('moves forward one stage at a time, each by its own means', () => {
    expect(canTransition('received', 'contacted', 'manual')).toBe(true);
    expect(canTransition('received', 'scheduled', 'booking')).toBe(true);
    expect(canTransition('received', 'scheduled', 'manual')).toBe(false);
    expect(canTransition('scheduled', 'tested', 'booking_completed')).toBe(true);
    expect(canTransition('tested', 'interpreted', 'manual')).toBe(false);
    expect(canTransition('tested', 'interpreted', 'sign')).toBe(true);
    expect(canTransition('interpreted', 'reported', 'report')).toBe(true);
    expect(canTransition('received', 'reported', 'report')).toBe(false);
    for (const final of ['reported', 'declined', 'cancelled'] as const) {
      for (const to of REFERRAL_STATUSES) {
        expect(canTransition(final, to, 'manual')).toBe(false);
      }
    }
    expect(manualTransitions('received')).toEqual(['contacted', 'declined', 'cancelled']);
    expect(manualTransitions('tested')).toEqual([]);
  });

  it('needs a reason to decline or cancel', () => {
    expect(fieldError(ReferralTransitionInput.safeParse({ status: 'declined' }))).toEqual({
      note: m.reasonForStatus,
    });
    expect(ReferralTransitionInput.parse({ status: 'contacted' })).toEqual({ status: 'contacted', note: '' });
  });
});

describe('interpretations', () => {
  it('computes severity by the AASM bands', () => {
    expect(severityOf(0)).toBe('normal');
    expect(severityOf(4.9)).toBe('normal');
    expect(severityOf(5)).toBe('mild');
    expect(severityOf(14.9)).toBe('mild');
    expect(severityOf(15)).toBe('moderate');
    expect(severityOf(29.9)).toBe('moderate');
    expect(severityOf(30)).toBe('severe');
    expect(severityOf(120)).toBe('severe');
  });

  it('needs every measure and both texts before signing', () => {
    expect(fieldError(InterpretationFinal.safeParse({ ahi: 12, odi: 10, lowestSpo2: 30 }))).toEqual({
      lowestSpo2: m.numberRange(40, 100),
      recordingMinutes: m.numberRequired,
      impression: m.impressionRequired,
      recommendation: m.recommendationRequired,
    });
  });
});

describe('SLA definitions', () => {
  it('needs the end stage after the start stage and a positive target', () => {
    const base = {
      name: 'Received to scheduled',
      fromStage: 'received',
      toStage: 'scheduled',
      targetHours: 48,
    };
    expect(SlaDefinitionInput.parse(base)).toMatchObject({
      businessHours: true,
      urgencies: [],
      active: true,
    });
    expect(fieldError(SlaDefinitionInput.safeParse({ ...base, toStage: 'received' }))).toEqual({
      toStage: m.stageOrder,
    });
    expect(fieldError(SlaDefinitionInput.safeParse({ ...base, targetHours: 0 }))).toEqual({
      targetHours: m.targetPositive,
    });
  });
});
