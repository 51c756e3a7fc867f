import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  API_PATHS,
  type AvailabilityDay,
  type BookingEvent,
  type BookingListItem,
  type BookingStatus,
  type DashboardStatsResponse,
  type Kit,
  type KitType,
  type Page,
  type Patient,
} from '@wellrest/core';
import { getQueryFn } from '@/lib/api';
import { practiceToday as practiceTodayInZone } from '@/lib/datetime';
import { rowsOf } from '@/lib/lists';

/*
 * The booking data the dashboard, the booking dialog and the lists share. Each key's first
 * element is the API path the default query function fetches.
 */
export const PATIENTS_KEY = [API_PATHS.patients] as const;
export const KITS_KEY = [API_PATHS.kits] as const;
export const BOOKINGS_KEY = [API_PATHS.bookings] as const;
export const DASHBOARD_STATS_KEY = [API_PATHS.dashboardStats] as const;
export const DAILY_AVAILABILITY_KEY = [API_PATHS.dailyAvailability] as const;

/** A booking as the list endpoint answers it; the label fields may be missing on older rows. */
export type BookingRow = Omit<BookingListItem, 'patientName' | 'kitLabel'> & {
  patientName?: string | null;
  kitLabel?: string | null;
};

export function usePatients(enabled = true) {
  return useQuery({
    queryKey: PATIENTS_KEY,
    enabled,
    select: (data: unknown) => rowsOf<Patient>(data, 'patients'),
  });
}

export function useKits(enabled = true) {
  return useQuery({
    queryKey: KITS_KEY,
    enabled,
    select: (data: unknown) => rowsOf<Kit>(data, 'kits'),
  });
}

/**
 * Bookings overlapping a date window (`from` to `to`, either open): the screens never load the
 * whole history, which at a clinic network's scale is hundreds of thousands of rows. The key
 * starts with BOOKINGS_KEY, so invalidating bookings refreshes every window.
 */
export function useBookings({
  from,
  to,
  enabled = true,
  keepPrevious = false,
}: {
  from?: string;
  to?: string;
  enabled?: boolean;
  /** Keep showing the previous window while the next one loads (e.g. paging a calendar). */
  keepPrevious?: boolean;
}) {
  const params = new URLSearchParams();
  if (from) params.set('from', from);
  if (to) params.set('to', to);
  const path = params.size > 0 ? `${API_PATHS.bookings}?${params}` : API_PATHS.bookings;
  return useQuery({
    queryKey: [...BOOKINGS_KEY, { from, to }],
    queryFn: (context) => defaultQueryFn({ ...context, queryKey: [path] }),
    enabled,
    placeholderData: keepPrevious ? keepPreviousData : undefined,
    select: (data: unknown) => rowsOf<BookingRow>(data, 'bookings'),
  });
}

const defaultQueryFn = getQueryFn<unknown>({ on401: 'throw' });

export function useDashboardStats() {
  return useQuery<Partial<DashboardStatsResponse>>({ queryKey: DASHBOARD_STATS_KEY });
}

/**
 * Daily availability from today: `days` days, or the API's default range (14) when omitted. A
 * screen asks only for the days it shows; at a clinic network's scale each day lists hundreds of
 * pickups and returns. The key starts with DAILY_AVAILABILITY_KEY, so invalidating availability
 * refreshes every range.
 */
export function useDailyAvailability(days?: number) {
  const path =
    days === undefined ? API_PATHS.dailyAvailability : `${API_PATHS.dailyAvailability}?days=${days}`;
  return useQuery({
    queryKey: days === undefined ? DAILY_AVAILABILITY_KEY : [...DAILY_AVAILABILITY_KEY, { days }],
    queryFn: (context) => defaultQueryFn({ ...context, queryKey: [path] }),
    select: (data: unknown) => rowsOf<AvailabilityDay>(data, 'days'),
  });
}

/** Everything a booking change can affect: refetched after a booking is created or changed. */
export const BOOKING_DATA_KEYS = [
  BOOKINGS_KEY,
  PATIENTS_KEY,
  KITS_KEY,
  DASHBOARD_STATS_KEY,
  DAILY_AVAILABILITY_KEY,
] as const;

/** Today in the practice's time zone, as the API computes it. */
export function practiceToday(now: Date = new Date()): string {
  return practiceTodayInZone(now);
}

/** The list filters of the bookings screens, as the URL and the API spell them. */
export interface BookingListFilters {
  status: BookingStatus[];
  kitType: KitType | null;
  from: string | null;
  to: string | null;
  patientId: number | null;
  page: number;
}

export const BOOKING_LIST_PAGE_SIZE = 25;

/** Where a booking's agreement form stands (the list and the detail carry it). */
export type AgreementState = 'signed' | 'sent' | 'none';

export type BookingListEntry = BookingRow & { agreementStatus?: AgreementState };

/** The query string of GET /api/bookings for a page of filtered bookings. */
export function bookingListPath(filters: BookingListFilters): string {
  const params = new URLSearchParams();
  for (const status of filters.status) params.append('status', status);
  if (filters.kitType) params.set('kitType', filters.kitType);
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  if (filters.patientId) params.set('patientId', String(filters.patientId));
  params.set('sort', '-startDate');
  params.set('page', String(filters.page));
  params.set('pageSize', String(BOOKING_LIST_PAGE_SIZE));
  return `${API_PATHS.bookings}?${params}`;
}

/** One page of filtered bookings with the total; the previous page stays shown while the next loads. */
export function useBookingPage(filters: BookingListFilters) {
  const path = bookingListPath(filters);
  return useQuery({
    queryKey: [...BOOKINGS_KEY, 'page', filters],
    queryFn: (context) => defaultQueryFn({ ...context, queryKey: [path] }),
    placeholderData: keepPreviousData,
    select: (data: unknown) => data as Page<BookingListEntry>,
  });
}

/** A booking with its history and agreement, as GET /api/bookings/{id} answers. */
export type BookingDetail = BookingListEntry & {
  agreement?: { status: AgreementState; sentAt: string | null; signedAt: string | null };
  events: BookingEvent[];
};

export function useBookingDetail(id: number | null) {
  return useQuery({
    queryKey: [...BOOKINGS_KEY, 'detail', id],
    queryFn: (context) => defaultQueryFn({ ...context, queryKey: [`${API_PATHS.bookings}/${id}`] }),
    enabled: id !== null,
    select: (data: unknown) => data as BookingDetail,
  });
}

/** A drop-off a patient reported at /dropoff-form, as staff see it on the booking. */
export interface BookingDropoff {
  id: number;
  bookingId: number;
  dropoffDate: string;
  location: string;
  notes: string | null;
  problems: string | null;
  reportedAt: string;
  confirmedAt: string | null;
}

export function useBookingDropoffs(id: number | null) {
  return useQuery({
    queryKey: [...BOOKINGS_KEY, 'dropoffs', id],
    queryFn: (context) => defaultQueryFn({ ...context, queryKey: [`${API_PATHS.bookings}/${id}/dropoffs`] }),
    enabled: id !== null,
    select: (data: unknown) => rowsOf<BookingDropoff>(data, 'dropoffs'),
  });
}
