import { describe, expect, it } from 'vitest';
import {
  BOOKING_STATUSES,
  BookingStatus,
  GENDERS,
  HOLDING_STATUSES,
  KIT_STATUSES,
  KIT_TYPES,
  KitType,
  LEAD_SOURCES,
  ROLES,
  Role,
  TEST_TYPES,
} from '../enums.js';
import { searchResultUrl } from '../navigation/routes.js';
import { LoginInput, LoginResponse } from './auth.js';
import { AvailabilityDay } from './availability.js';
import { Booking, CreateBookingInput, CreateKitInput, Kit } from './booking.js';
import { IsoDate } from './common.js';
import { CreatePatientInput, Patient, UpdatePatientInput } from './patient.js';
import { PrivacyAcknowledgmentInput, PrivacyCheck } from './privacy.js';
import { SearchInput, SearchResult } from './search.js';

function messagesOf(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
}

describe('enums', () => {
  it('hold the values of the spec, in order', () => {
    expect(KIT_TYPES).toEqual(['Somfit', 'Z-Machine', 'SleepView']);
    expect(TEST_TYPES).toEqual(['2-day', '3-day']);
    expect(BOOKING_STATUSES).toEqual(['pending', 'confirmed', 'picked_up', 'completed', 'cancelled']);
    expect(HOLDING_STATUSES).toEqual(['pending', 'confirmed', 'picked_up']);
    expect(KIT_STATUSES).toEqual(['available', 'in_use', 'cleaning', 'maintenance', 'retired', 'lost']);
    expect(ROLES).toEqual(['admin', 'medical_director', 'scheduler', 'physician', 'staff', 'technician']);
    expect(GENDERS).toEqual(['male', 'female', 'other', 'prefer-not-to-say']);
    expect(LEAD_SOURCES).toEqual(['Direct', 'Referral', 'Online', 'GHL', 'Other']);
  });

  it('have schemas that refuse anything else', () => {
    expect(KitType.safeParse('Somfit').success).toBe(true);
    expect(KitType.safeParse('somfit').success).toBe(false);
    expect(BookingStatus.safeParse('picked_up').success).toBe(true);
    expect(BookingStatus.safeParse('picked-up').success).toBe(false);
    expect(Role.safeParse('superuser').success).toBe(false);
  });
});

describe('IsoDate', () => {
  it('accepts real calendar dates only', () => {
    expect(IsoDate.safeParse('2028-02-29').success).toBe(true);
    expect(IsoDate.safeParse('2025-02-29').success).toBe(false);
    expect(IsoDate.safeParse('2025-11-24T00:00:00Z').success).toBe(false);
    expect(IsoDate.safeParse(20251124).success).toBe(false);
    expect(IsoDate.safeParse('2025-02-30').error?.issues[0]?.message).toBe('Invalid date');
  });
});

describe('CreatePatientInput', () => {
  it('requires name, email and phone with clear messages', () => {
    expect(messagesOf(CreatePatientInput.safeParse({}))).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      phone: 'Phone is required',
    });
    expect(messagesOf(CreatePatientInput.safeParse({ name: '  ', email: '', phone: ' \t' }))).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      phone: 'Phone is required',
    });
  });

  it('validates the email address', () => {
    const result = CreatePatientInput.safeParse({
      name: 'Ada Example',
      email: 'not-an-email',
      phone: '555-0100',
    });
    expect(messagesOf(result)).toEqual({ email: 'Enter a valid email address' });
  });

  it("trims, and defaults leadSource to 'Direct'", () => {
    const patient = CreatePatientInput.parse({
      name: ' Ada Example ',
      email: ' ada@example.test ',
      phone: '555-0100',
    });
    expect(patient).toEqual({
      name: 'Ada Example',
      email: 'ada@example.test',
      phone: '555-0100',
      leadSource: 'Direct',
    });
  });

  it('takes every optional field of spec §3, null allowed', () => {
    const full = {
      name: 'Ada Example',
      email: 'ada@example.test',
      phone: '555-0100',
      dateOfBirth: '1980-02-29',
      gender: 'prefer-not-to-say',
      address: '1 Main St',
      city: 'Springfield',
      state: 'IL',
      zipCode: '62701',
      emergencyContact: 'Ben Example',
      emergencyPhone: '555-0101',
      insuranceProvider: 'Acme Health',
      insurancePolicyNumber: 'P-1',
      referringPhysician: 'Dr. Example',
      medicalHistory: 'Snoring',
      medications: null,
      leadSource: 'GHL',
      ghlId: 'abc123',
    };
    expect(CreatePatientInput.parse(full)).toEqual(full);
    expect(CreatePatientInput.safeParse({ ...full, gender: 'unknown' }).success).toBe(false);
    expect(CreatePatientInput.safeParse({ ...full, leadSource: 'Radio' }).success).toBe(false);
    expect(CreatePatientInput.safeParse({ ...full, dateOfBirth: '1981-02-29' }).success).toBe(false);
  });

  it('UpdatePatientInput takes any subset and adds no defaults', () => {
    expect(UpdatePatientInput.parse({})).toEqual({});
    expect(UpdatePatientInput.parse({ city: 'Springfield' })).toEqual({ city: 'Springfield' });
    expect(messagesOf(UpdatePatientInput.safeParse({ name: ' ' }))).toEqual({ name: 'Name is required' });
  });

  it('Patient is the stored record with its id', () => {
    expect(Patient.parse({ id: 1, name: 'A', email: 'a@b.co', phone: '1' }).leadSource).toBe('Direct');
    expect(Patient.safeParse({ name: 'A', email: 'a@b.co', phone: '1' }).success).toBe(false);
  });
});

describe('bookings and kits', () => {
  const stored = {
    id: 1,
    patientId: 2,
    kitId: 3,
    testType: '2-day',
    kitType: 'Somfit',
    status: 'confirmed',
    startDate: '2025-11-24',
    endDate: '2025-11-25',
    returnDate: '2025-11-26',
    notes: null,
  };

  it('Booking refers to a numeric kit id or none', () => {
    expect(Booking.parse(stored)).toEqual(stored);
    expect(Booking.parse({ ...stored, kitId: null }).kitId).toBeNull();
    expect(Booking.safeParse({ ...stored, kitId: 'SOM-001' }).success).toBe(false);
  });

  it("CreateBookingInput defaults the test type to '2-day'", () => {
    expect(CreateBookingInput.parse({ patientId: 2, kitType: 'Somfit', startDate: '2025-11-24' })).toEqual({
      patientId: 2,
      kitType: 'Somfit',
      startDate: '2025-11-24',
      testType: '2-day',
    });
    expect(
      CreateBookingInput.safeParse({ patientId: 2, kitType: 'Somfit', startDate: '2025-11-31' }).success,
    ).toBe(false);
    expect(CreateBookingInput.safeParse({ patientId: 2, kitType: 'Somfit' }).success).toBe(false);
  });

  it('Kit has a printed label and an optional status', () => {
    expect(Kit.parse({ id: 1, kitId: 'SOM-001', type: 'Somfit' })).toEqual({
      id: 1,
      kitId: 'SOM-001',
      type: 'Somfit',
    });
    expect(Kit.safeParse({ id: 1, kitId: 'SOM-001', type: 'Somfit', status: 'broken' }).success).toBe(false);
    expect(CreateKitInput.parse({ kitId: 'SOM-009', type: 'Somfit' }).status).toBe('available');
  });

  it('AvailabilityDay matches what dailyAvailability returns', () => {
    const day = { date: '2025-11-24', label: 'Today', availableUnits: 3, pickups: [], dropoffs: [] };
    expect(AvailabilityDay.parse(day)).toEqual(day);
    expect(AvailabilityDay.safeParse({ ...day, availableUnits: -1 }).success).toBe(false);
  });
});

describe('LoginInput', () => {
  it('requires username and password with the spec messages', () => {
    expect(messagesOf(LoginInput.safeParse({}))).toEqual({
      username: 'Username or email is required',
      password: 'Password is required',
    });
    expect(messagesOf(LoginInput.safeParse({ username: '  ', password: '' }))).toEqual({
      username: 'Username or email is required',
      password: 'Password is required',
    });
  });

  it('takes an optional 6-character code, trust flag and device id', () => {
    const full = {
      username: 'sam',
      password: 'correct horse',
      twoFactorToken: '123456',
      trustDevice: true,
      deviceId: 'd-1',
    };
    expect(LoginInput.parse(full)).toEqual(full);
    expect(LoginInput.parse({ username: 'sam', password: 'x' })).toEqual({ username: 'sam', password: 'x' });
    expect(messagesOf(LoginInput.safeParse({ ...full, twoFactorToken: '12345' }))).toEqual({
      twoFactorToken: 'The authentication code has 6 characters',
    });
    expect(LoginInput.safeParse({ ...full, twoFactorToken: '1234567' }).success).toBe(false);
    expect(LoginInput.safeParse({ ...full, trustDevice: 'yes' }).success).toBe(false);
  });

  it('keeps the password exactly as typed', () => {
    expect(LoginInput.parse({ username: ' sam ', password: ' pass ' })).toEqual({
      username: 'sam',
      password: ' pass ',
    });
  });

  it('LoginResponse carries the flags and the user', () => {
    const response = {
      success: true,
      deviceId: 'd-2',
      user: { id: 1, username: 'sam', role: 'physician', physicianId: 4 },
    };
    expect(LoginResponse.parse(response)).toEqual(response);
    expect(LoginResponse.parse({ success: false, requiresTwoFactor: true })).toEqual({
      success: false,
      requiresTwoFactor: true,
    });
  });
});

describe('search', () => {
  it('needs at least 2 characters and defaults the limit to 10', () => {
    expect(messagesOf(SearchInput.safeParse({ query: 'a' }))).toEqual({
      query: 'Type at least 2 characters to search',
    });
    expect(SearchInput.parse({ query: 'ad' })).toEqual({ query: 'ad', limit: 10 });
    expect(SearchInput.safeParse({ query: 'ad', limit: 51 }).success).toBe(false);
    expect(SearchInput.parse({ query: 'ad', limit: 50 }).limit).toBe(50);
  });

  it('results link where DESIGN.md §2 says', () => {
    expect(searchResultUrl('patient', 4)).toBe('/patients#patient-4');
    expect(searchResultUrl('booking', 5)).toBe('/bookings-management?booking=5');
    expect(searchResultUrl('physician', 6)).toBe('/physicians/6');
    expect(searchResultUrl('referral', 7)).toBe('/referrals?referral=7');
    const result = { type: 'patient', id: 4, title: 'Ada Example', url: searchResultUrl('patient', 4) };
    expect(SearchResult.parse(result)).toEqual(result);
  });
});

describe('privacy', () => {
  it('PrivacyCheck and PrivacyAcknowledgmentInput have the spec fields', () => {
    const check = {
      hasAcknowledged: false,
      currentVersion: '1.0',
      acknowledgedVersion: null,
      needsAcknowledgment: true,
    };
    expect(PrivacyCheck.parse(check)).toEqual(check);
    const ack = { policyVersion: '1.0', method: 'manual', policyUrl: '/privacy-policy', policyHash: 'abc' };
    expect(PrivacyAcknowledgmentInput.parse(ack)).toEqual(ack);
    expect(PrivacyAcknowledgmentInput.safeParse({ ...ack, method: 'auto' }).success).toBe(false);
  });
});
