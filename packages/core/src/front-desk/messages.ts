import { formatDate } from '../dates/calendar.js';

/**
 * Front-desk strings not in the specification's catalogue: duplicate records, agreement links,
 * idempotent requests. The API answers with them and the console and tests compare against them.
 */
export const frontDeskMessages = {
  idempotencyKeyInvalid: 'The Idempotency-Key header must be a UUID.',
  idempotencyKeyReused: 'This Idempotency-Key was already used for a different request.',
  /** Names the existing booking, never the patient: error bodies stay free of patient data. */
  duplicateBooking: (kitType: string, startDate: string, bookingId: number): string =>
    `This patient already has an active ${kitType} booking starting ${formatDate(startDate)} (booking #${bookingId}). Create another only if that is intended.`,
  duplicateBookingTitle: 'Possible duplicate booking',
  duplicateBookingProceed: 'Create another booking',
  duplicateBookingOpen: 'Open existing booking',
  duplicatePatientTitle: 'A patient with these details already exists',
  duplicatePatient: (name: string, fields: readonly string[]): string =>
    `${name} has the same ${fields.join(' and ')}.`,
  openExistingPatient: 'Open existing record',
  agreementAlreadySigned: 'This booking\u2019s agreement is already signed.',
  agreementNotSigned: 'This booking has no signed agreement to replace.',
  agreementSigned: 'Agreement signed',
  agreementSignedOn: (date: string): string => `Agreement signed ${formatDate(date)}`,
  resignAgreement: 'Ask to sign again',
  resignReasonLabel: 'Reason for a new signature',
  resignReasonRequired: 'Please give the reason for a new signature.',
  resignConfirm: 'Void signature and send new form',
  sendAgreement: 'Send agreement form',
  signAgreement: 'Sign Agreement',
  morePickups: (count: number): string => `+${count} more pickups`,
  /** The two meanings of "available", each named (core's kitCounts: freeToday, onShelf). */
  kitsFreeTodayTitle: 'Kits Free to Book Today',
  kitsFreeToday: 'free to book today',
  kitsOnShelf: 'on the shelf now',
  kitsBookedToday: 'booked today',
  kitsSummary: (onShelf: number, heldToday: number, total: number): string =>
    `${onShelf} on the shelf now · ${heldToday} booked today · ${total} in all`,
  kitStatsLink: 'Kit utilisation',
  fewerPickups: 'Show fewer',
} as const;

/** The header that makes a create idempotent, and how long its first answer is replayed. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_REPLAYED_HEADER = 'Idempotent-Replayed';
export const IDEMPOTENCY_TTL_HOURS = 24;
