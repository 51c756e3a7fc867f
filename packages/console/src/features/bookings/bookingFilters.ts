import { BOOKING_STATUSES, type BookingStatus, IsoDate, KIT_TYPES, type KitType } from '@wellrest/core';
import type { BookingListFilters } from './queries';

// The bookings screens keep their filters in the URL so a view survives a reload and can be
// shared. Only identifiers and dates go there: the patient filter is an id, never a name.

export const EMPTY_FILTERS: BookingListFilters = {
  status: [],
  kitType: null,
  from: null,
  to: null,
  patientId: null,
  page: 1,
};

function dateOrNull(value: string | null): string | null {
  return value && IsoDate.safeParse(value).success ? value : null;
}

/** The filters a query string names; anything malformed is ignored. */
export function parseFilters(search: string): BookingListFilters {
  const params = new URLSearchParams(search);
  const status = params
    .getAll('status')
    .flatMap((value) => value.split(','))
    .filter((value): value is BookingStatus => (BOOKING_STATUSES as readonly string[]).includes(value));
  const kitType = params.get('kitType');
  const patientId = Number(params.get('patientId'));
  const page = Number(params.get('page'));
  return {
    status: [...new Set(status)],
    kitType: (KIT_TYPES as readonly string[]).includes(kitType ?? '') ? (kitType as KitType) : null,
    from: dateOrNull(params.get('from')),
    to: dateOrNull(params.get('to')),
    patientId: Number.isInteger(patientId) && patientId > 0 ? patientId : null,
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

/**
 * The query string of a set of filters, keeping other parameters of `search` (e.g. the open
 * `booking`). Defaults are left out so a plain list has a plain URL.
 */
export function filtersSearch(filters: BookingListFilters, search = ''): string {
  const params = new URLSearchParams(search);
  for (const key of ['status', 'kitType', 'from', 'to', 'patientId', 'page']) params.delete(key);
  for (const status of filters.status) params.append('status', status);
  if (filters.kitType) params.set('kitType', filters.kitType);
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  if (filters.patientId) params.set('patientId', String(filters.patientId));
  if (filters.page > 1) params.set('page', String(filters.page));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The booking a URL opens (`?booking={id}`), or null. */
export function openBookingId(search: string): number | null {
  const id = Number(new URLSearchParams(search).get('booking'));
  return Number.isInteger(id) && id > 0 ? id : null;
}

/** The query string with the open booking set (or removed). */
export function withOpenBooking(search: string, id: number | null): string {
  const params = new URLSearchParams(search);
  if (id === null) params.delete('booking');
  else params.set('booking', String(id));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function hasFilters(filters: BookingListFilters): boolean {
  return (
    filters.status.length > 0 ||
    filters.kitType !== null ||
    filters.from !== null ||
    filters.to !== null ||
    filters.patientId !== null
  );
}
