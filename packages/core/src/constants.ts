import type { BookingStatus, LeadSource, SearchResultType, TestType } from './enums.js';

// Business constants and limits of spec §9, plus the defaults DESIGN.md §2 fixes.

/** Number of nights a kit is with the patient, per test type. */
export const TEST_LENGTH_DAYS: Readonly<Record<TestType, number>> = { '2-day': 2, '3-day': 3 };
/** Days from the start date to the end date: a 2-day test ends 1 day after it starts, a 3-day test 2 days after. */
export const TEST_END_OFFSET_DAYS: Readonly<Record<TestType, number>> = { '2-day': 1, '3-day': 2 };
/** Each kit needs this many days of maintenance after a test ends before it can go out again. */
export const MAINTENANCE_DAYS = 1;
export const DEFAULT_TEST_TYPE: TestType = '2-day';
export const DEFAULT_LEAD_SOURCE: LeadSource = 'Direct';
/** Status of a booking created from the booking dialog. */
export const DEFAULT_BOOKING_STATUS: BookingStatus = 'confirmed';

export const AGREEMENT_REFRESH_DELAY_MS = 2000;

export const SEARCH_MIN_CHARS = 2;
export const SEARCH_DEBOUNCE_MS = 300;
export const SEARCH_LIMIT = 10;
export const SEARCH_MAX_LIMIT = 50;

export type BadgeColor = 'blue' | 'green' | 'purple' | 'orange' | 'yellow' | 'red' | 'grey';

export const SEARCH_RESULT_COLORS: Readonly<Record<SearchResultType, BadgeColor>> = {
  patient: 'blue',
  booking: 'green',
  physician: 'purple',
  referral: 'orange',
};

export const BOOKING_STATUS_COLORS: Readonly<Record<BookingStatus | 'other', BadgeColor>> = {
  pending: 'yellow',
  confirmed: 'green',
  picked_up: 'purple',
  completed: 'blue',
  cancelled: 'red',
  other: 'grey',
};

/** Badge colour of a booking status; any status not in the list is grey. */
export function bookingStatusColor(status: string): BadgeColor {
  return Object.hasOwn(BOOKING_STATUS_COLORS, status)
    ? BOOKING_STATUS_COLORS[status as BookingStatus]
    : BOOKING_STATUS_COLORS.other;
}

export const STAT_CARD_COLORS = ['green', 'blue', 'purple', 'amber'] as const;
export type StatCardColor = (typeof STAT_CARD_COLORS)[number];

/** The dashboard shows this many days of availability cards... */
export const AVAILABILITY_CARD_DAYS = 3;
/** ...with this many pickups and this many drop-offs each before '+N more'. */
export const AVAILABILITY_CARD_ITEMS = 2;
/** Daily availability covers this many days from today. */
export const AVAILABILITY_RANGE_DAYS = 14;
/** A start date with at most this many free kits of the chosen type is shown amber (limited availability). */
export const LIMITED_AVAILABILITY_MAX_UNITS = 2;

export const TWO_FACTOR_CODE_LENGTH = 6;
export const TRUSTED_DEVICE_DAYS = 30;

export const PRIVACY_POLICY_LAST_UPDATED = 'January 1, 2025';
export const PRIVACY_METHOD = 'manual';
export const PRIVACY_POLICY_URL = '/privacy-policy';
/** The fixed value the client sends as policyHash when it cannot compute the notice hash itself. */
export const PRIVACY_POLICY_HASH_PLACEHOLDER = 'privacy-policy-hash-v1';
export const DEFAULT_PRIVACY_POLICY_VERSION = '1.0';
/** Browser-local flag set once the privacy notice is acknowledged, and the value stored in it. */
export const PRIVACY_ACK_STORAGE_KEY = 'privacy-acknowledged';
export const PRIVACY_ACK_STORAGE_VALUE = 'true';
/** Local-storage key of the random device id sent with every login. */
export const DEVICE_ID_STORAGE_KEY = 'deviceId';

export const QUERY_DEFAULTS = {
  staleTime: 0,
  gcTime: 0,
  retry: 2,
  /** Exponential back-off: 1 s, doubled per attempt, at most 30 s. */
  retryDelay: (attempt: number): number => Math.min(1000 * 2 ** attempt, 30_000),
  mutationRetry: 1,
  networkMode: 'always',
} as const;

export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_DIRECTION = 'right';
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOAST_HOTKEY: string[] = ['F8'];
export const TOAST_VIEWPORT_MAX_WIDTH_PX = 420;

export const TOOLTIP_DELAY_MS = 700;
export const SCROLL_HIDE_DELAY_MS = 600;
export const COMMAND_LIST_MAX_HEIGHT_PX = 300;

export const SIDEBAR_WIDTH = '16rem';
export const SIDEBAR_WIDTH_MOBILE = '18rem';

export const DEFAULT_PRACTICE_TIME_ZONE = 'America/New_York';
/** HIPAA automatic logoff: idle sessions end after this many minutes unless an admin sets otherwise. */
export const SESSION_IDLE_MINUTES_DEFAULT = 15;
export const PASSWORD_EXPIRY_DAYS_DEFAULT = 90;
/** Failed sign-ins in a row that lock an account, and how long the lock lasts. */
export const LOCKOUT_THRESHOLD = 5;
export const LOCKOUT_MINUTES = 15;
export const PASSWORD_MIN_LENGTH = 12;
