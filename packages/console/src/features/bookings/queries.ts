import { useQuery } from '@tanstack/react-query';
import {
  API_PATHS,
  type AvailabilityDay,
  type BookingListItem,
  type DashboardStatsResponse,
  DEFAULT_PRACTICE_TIME_ZONE,
  type Kit,
  type Patient,
  todayInTimeZone,
} from '@wellrest/core';
import { getQueryFn } from '@/lib/api';
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
export function useBookings({ from, to, enabled = true }: { from?: string; to?: string; enabled?: boolean }) {
  const params = new URLSearchParams();
  if (from) params.set('from', from);
  if (to) params.set('to', to);
  const path = params.size > 0 ? `${API_PATHS.bookings}?${params}` : API_PATHS.bookings;
  return useQuery({
    queryKey: [...BOOKINGS_KEY, { from, to }],
    queryFn: (context) => defaultQueryFn({ ...context, queryKey: [path] }),
    enabled,
    select: (data: unknown) => rowsOf<BookingRow>(data, 'bookings'),
  });
}

const defaultQueryFn = getQueryFn<unknown>({ on401: 'throw' });

export function useDashboardStats() {
  return useQuery<Partial<DashboardStatsResponse>>({ queryKey: DASHBOARD_STATS_KEY });
}

export function useDailyAvailability() {
  return useQuery({
    queryKey: DAILY_AVAILABILITY_KEY,
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
  return todayInTimeZone(DEFAULT_PRACTICE_TIME_ZONE, now);
}
