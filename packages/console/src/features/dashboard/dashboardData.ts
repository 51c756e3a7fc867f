import { AVAILABILITY_CARD_ITEMS, type Pickup, searchResultUrl } from '@wellrest/core';

/** The items a card lists and how many more it only counts ('+N more pickups'). */
export function visibleItems<T>(items: readonly T[], limit: number = AVAILABILITY_CARD_ITEMS) {
  return { shown: items.slice(0, limit), hidden: Math.max(0, items.length - limit) };
}

/** The calendar date of a date or date-time string, or null when it has none. */
function datePart(value: string | null | undefined): string | null {
  if (!value) return null;
  const part = value.slice(0, 10);
  return /^\d{4}-\d{2}-\d{2}$/.test(part) ? part : null;
}

/** Bookings whose start date is today, earliest first (then by id, so the order is stable). */
export function todaysBookings<T extends { id: number; startDate: string }>(
  bookings: readonly T[],
  today: string,
): T[] {
  return bookings
    .filter((booking) => datePart(booking.startDate) === today)
    .sort((a, b) => a.startDate.localeCompare(b.startDate) || a.id - b.id);
}

/** The sign-agreement button shows only on a pickup that is today and confirmed (spec §4). */
export function canSignAgreement(pickup: Pick<Pickup, 'status'>, dayDate: string, today: string): boolean {
  return dayDate === today && pickup.status === 'confirmed';
}

/** Where a pickup or drop-off leads: the patient in the patients list. */
export function patientAnchorHref(patientId: number): string {
  return searchResultUrl('patient', patientId);
}
