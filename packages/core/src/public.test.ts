import { describe, expect, it } from 'vitest';
import {
  availabilityLevel,
  CreateEmbedKeyInput,
  DropoffReportInput,
  isOrigin,
  isValidNpi,
  PhysicianSignupInput,
  PublicAvailabilityQuery,
  PublicBookingRequestInput,
  PublicReferralInput,
  parseBookingReference,
  publicFormsMessages,
  SignAgreementInput,
} from './public.js';

const common = { startedAt: 1, idempotencyKey: '7d4e9a3c-2b1f-4c8e-9a6d-1f2e3d4c5b6a' };

function fieldErrors(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
}

describe('isValidNpi', () => {
  it('accepts NPIs whose check digit is Luhn over the 80840 prefix', () => {
    expect(isValidNpi('1234567893')).toBe(true);
    expect(isValidNpi('1245319599')).toBe(true);
  });
  it('refuses wrong check digits, wrong lengths and non-digits', () => {
    expect(isValidNpi('1234567890')).toBe(false);
    expect(isValidNpi('123456789')).toBe(false);
    expect(isValidNpi('12345678a3')).toBe(false);
  });
});

describe('availabilityLevel', () => {
  it('maps free units to none, limited and available', () => {
    expect([0, 1, 2, 3, 10].map(availabilityLevel)).toEqual([
      'none',
      'limited',
      'limited',
      'available',
      'available',
    ]);
  });
});

describe('PublicAvailabilityQuery', () => {
  it('coerces days and defaults the test type', () => {
    const parsed = PublicAvailabilityQuery.parse({ kitType: 'Somfit', from: '2026-03-02', days: '7' });
    expect(parsed).toEqual({ kitType: 'Somfit', testType: '2-day', from: '2026-03-02', days: 7 });
  });
  it('refuses more than 60 days', () => {
    expect(
      PublicAvailabilityQuery.safeParse({ kitType: 'Somfit', from: '2026-03-02', days: 61 }).success,
    ).toBe(false);
  });
});

describe('PublicBookingRequestInput', () => {
  const valid = {
    name: 'Pat Doe',
    email: 'pat@example.com',
    phone: '555-0100',
    kitType: 'Somfit',
    testType: '2-day',
    startDate: '2026-03-04',
    ...common,
  };
  it('accepts a complete request', () => {
    expect(PublicBookingRequestInput.safeParse(valid).success).toBe(true);
  });
  it('names every bad field', () => {
    const result = PublicBookingRequestInput.safeParse({ ...common, name: ' ', email: 'x', website: 'spam' });
    const errors = fieldErrors(result);
    expect(errors.name).toBe(publicFormsMessages.nameRequired);
    expect(errors.email).toBe(publicFormsMessages.emailInvalid);
    expect(errors.phone).toBe(publicFormsMessages.phoneRequired);
    expect(errors.kitType).toBe(publicFormsMessages.kitTypeRequired);
    expect(errors.startDate).toBe(publicFormsMessages.startDateRequired);
    expect(errors.website).toBe(publicFormsMessages.honeypot);
  });
  it('refuses a Friday start', () => {
    const errors = fieldErrors(PublicBookingRequestInput.safeParse({ ...valid, startDate: '2026-03-06' }));
    expect(errors.startDate).toBe(publicFormsMessages.startDateInvalid);
  });
});

describe('PublicReferralInput', () => {
  const valid = {
    physician: { name: 'Dr Smith', npi: '1234567893', email: 'dr@example.com' },
    patient: { name: 'Pat Doe', phone: '555-0100' },
    reason: 'Snoring and daytime fatigue',
    urgency: 'routine',
    ...common,
  };
  it('accepts a referral with an attachment', () => {
    const attachment = { filename: 'a.pdf', contentType: 'application/pdf', dataBase64: 'JVBERi0=' };
    expect(PublicReferralInput.safeParse({ ...valid, attachment }).success).toBe(true);
  });
  it('refuses a bad NPI, a short reason and an unknown attachment type', () => {
    const errors = fieldErrors(
      PublicReferralInput.safeParse({
        ...valid,
        physician: { ...valid.physician, npi: '1234567890' },
        reason: 'short',
        attachment: { filename: 'a.exe', contentType: 'application/x-msdownload', dataBase64: 'AA==' },
      }),
    );
    expect(errors['physician.npi']).toBe(publicFormsMessages.npiInvalid);
    expect(errors.reason).toBe(publicFormsMessages.reasonTooShort);
    expect(errors['attachment.contentType']).toBe(publicFormsMessages.attachmentType);
  });
  it('refuses attachments over 2 MB', () => {
    const dataBase64 = 'A'.repeat(Math.ceil((2 * 1024 * 1024 + 3) / 3) * 4);
    const errors = fieldErrors(
      PublicReferralInput.safeParse({
        ...valid,
        attachment: { filename: 'a.png', contentType: 'image/png', dataBase64 },
      }),
    );
    expect(errors['attachment.dataBase64']).toBe(publicFormsMessages.attachmentTooLarge);
  });
});

describe('PhysicianSignupInput', () => {
  it('requires practice and specialty', () => {
    const errors = fieldErrors(
      PhysicianSignupInput.safeParse({
        name: 'Dr A',
        npi: '1234567893',
        email: 'a@b.co',
        phone: '1',
        ...common,
      }),
    );
    expect(errors).toEqual({
      practice: publicFormsMessages.practiceRequired,
      specialty: publicFormsMessages.specialtyRequired,
    });
  });
});

describe('SignAgreementInput', () => {
  it('requires a PNG data URL and consent', () => {
    const errors = fieldErrors(
      SignAgreementInput.safeParse({ fullName: 'Pat Doe', signature: 'x', consent: false }),
    );
    expect(errors).toEqual({
      signature: publicFormsMessages.signatureRequired,
      consent: publicFormsMessages.consentRequired,
    });
  });
});

describe('DropoffReportInput', () => {
  it('takes the link token as its proof, never a booking number and a name', () => {
    const base = { dropoffDate: '2026-03-06', location: 'Front desk' };
    expect(DropoffReportInput.safeParse({ ...base, token: 'abc' }).success).toBe(true);
    const errors = fieldErrors(
      DropoffReportInput.safeParse({ ...base, bookingReference: '#123', lastName: 'Doe' }),
    );
    expect(errors).toEqual({ token: publicFormsMessages.dropoffLinkRequired });
  });
  it('parses booking references', () => {
    expect(['123', '#123', ' # 7 ', 'abc', '0'].map(parseBookingReference)).toEqual([
      123,
      123,
      7,
      null,
      null,
    ]);
  });
});

describe('embed keys', () => {
  it('accepts only full origins', () => {
    expect(isOrigin('https://partner.example')).toBe(true);
    expect(isOrigin('http://localhost:5173')).toBe(true);
    expect(isOrigin('https://partner.example/')).toBe(false);
    expect(isOrigin('partner.example')).toBe(false);
    expect(CreateEmbedKeyInput.safeParse({ name: 'Partner', allowedOrigins: [] }).success).toBe(false);
  });
});
