import type { BookingStatus } from '../enums.js';

/** Allowed status changes (DESIGN.md §2). Completed and cancelled are final. */
export const BOOKING_STATUS_TRANSITIONS: Readonly<Record<BookingStatus, readonly BookingStatus[]>> = {
  pending: ['confirmed', 'cancelled'],
  confirmed: ['picked_up', 'cancelled'],
  picked_up: ['completed'],
  completed: [],
  cancelled: [],
};

export function canTransitionBooking(from: BookingStatus, to: BookingStatus): boolean {
  return BOOKING_STATUS_TRANSITIONS[from].includes(to);
}

/** Extension and reduction both need a confirmed booking (spec §5). */
export function isExtendable(booking: { testType: string; status: string }): boolean {
  return booking.testType === '2-day' && booking.status === 'confirmed';
}

export function isReducible(booking: { testType: string; status: string }): boolean {
  return booking.testType === '3-day' && booking.status === 'confirmed';
}
