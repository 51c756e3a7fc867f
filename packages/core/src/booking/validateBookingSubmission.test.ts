import { describe, expect, it } from 'vitest';
import { messages } from '../messages.js';
import type { BookingForm } from '../schemas/booking.js';
import { validateBookingSubmission } from './validateBookingSubmission.js';

const complete: BookingForm = {
  tab: 'existing',
  patientId: 12,
  testType: '2-day',
  kitType: 'Somfit',
  startDate: '2025-11-24',
};
const available = ['Somfit', 'SleepView'] as const;

describe('validateBookingSubmission (spec §5 order)', () => {
  it('accepts a complete existing-patient form', () => {
    expect(validateBookingSubmission(complete, [...available])).toBeNull();
  });

  it('accepts a complete new-patient form', () => {
    const form: BookingForm = {
      ...complete,
      tab: 'new',
      patientId: null,
      newPatient: { name: 'Ada Example', email: 'ada@example.test', phone: '555-0100' },
    };
    expect(validateBookingSubmission(form, [...available])).toBeNull();
  });

  it('1. requires a start date before anything else', () => {
    const form: BookingForm = { tab: 'new', testType: '2-day', kitType: null, startDate: null };
    expect(validateBookingSubmission(form, [])).toBe('Please select a start date');
    expect(validateBookingSubmission({ ...complete, startDate: '' }, [...available])).toBe(
      messages.booking.startDateRequired,
    );
    expect(validateBookingSubmission({ ...complete, startDate: undefined }, [...available])).toBe(
      messages.booking.startDateRequired,
    );
  });

  it('2. then a kit type', () => {
    const form: BookingForm = { tab: 'new', testType: '2-day', kitType: null, startDate: '2025-11-24' };
    expect(validateBookingSubmission(form, [])).toBe('Please select a kit type');
    expect(validateBookingSubmission({ ...complete, kitType: undefined }, [...available])).toBe(
      messages.booking.kitTypeRequired,
    );
  });

  it('3. then that kit type must be available on that date', () => {
    const form: BookingForm = {
      tab: 'new',
      testType: '2-day',
      kitType: 'Z-Machine',
      startDate: '2025-11-24',
    };
    expect(validateBookingSubmission(form, [...available])).toBe(
      'Z-Machine kits are not available for the selected date. Please choose a different kit type or date.',
    );
    expect(validateBookingSubmission({ ...complete, kitType: 'Somfit' }, [])).toBe(
      messages.booking.kitNotAvailable('Somfit'),
    );
  });

  it('4. then, on the new-patient tab, name, email and phone', () => {
    const base: BookingForm = { ...complete, tab: 'new', patientId: 5 };
    const full = { name: 'Ada Example', email: 'ada@example.test', phone: '555-0100' };
    expect(validateBookingSubmission({ ...base, newPatient: undefined }, [...available])).toBe(
      'Please fill in all required patient fields',
    );
    for (const field of ['name', 'email', 'phone'] as const) {
      expect(
        validateBookingSubmission({ ...base, newPatient: { ...full, [field]: '' } }, [...available]),
      ).toBe(messages.booking.patientFieldsRequired);
      expect(
        validateBookingSubmission({ ...base, newPatient: { ...full, [field]: '   ' } }, [...available]),
      ).toBe(messages.booking.patientFieldsRequired);
    }
  });

  it('5. or, on the existing-patient tab, a selected patient', () => {
    expect(validateBookingSubmission({ ...complete, patientId: null }, [...available])).toBe(
      'Please select a patient',
    );
    expect(validateBookingSubmission({ ...complete, patientId: undefined }, [...available])).toBe(
      messages.booking.patientRequired,
    );
    // The new-patient fields do not stand in for a selection on the existing tab.
    expect(
      validateBookingSubmission(
        { ...complete, patientId: null, newPatient: { name: 'A', email: 'a@b.co', phone: '1' } },
        [...available],
      ),
    ).toBe(messages.booking.patientRequired);
  });
});
