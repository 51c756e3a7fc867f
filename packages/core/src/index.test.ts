import { describe, expect, it } from 'vitest';
import * as core from './index.js';

// The names other packages import. Renaming one breaks them, so the list is pinned here.
const REQUIRED = [
  'KIT_TYPES',
  'KitType',
  'TEST_TYPES',
  'TestType',
  'BOOKING_STATUSES',
  'BookingStatus',
  'HOLDING_STATUSES',
  'KIT_STATUSES',
  'KitStatus',
  'ROLES',
  'Role',
  'GENDERS',
  'LEAD_SOURCES',
  'IsoDate',
  'Patient',
  'CreatePatientInput',
  'UpdatePatientInput',
  'Booking',
  'CreateBookingInput',
  'Kit',
  'Pickup',
  'Dropoff',
  'AvailabilityDay',
  'ExtensionEligibility',
  'ReductionEligibility',
  'LoginInput',
  'LoginResponse',
  'CurrentUser',
  'SearchInput',
  'SearchResultType',
  'SearchResult',
  'PrivacyCheck',
  'PrivacyAcknowledgmentInput',
  'addDays',
  'dayOfWeek',
  'isWeekend',
  'compareDates',
  'daysBetween',
  'todayInTimeZone',
  'dayLabel',
  'formatDate',
  'formatReturnDate',
  'testDates',
  'isValidStartDate',
  'heldWindow',
  'isKitFree',
  'availableKitsOfType',
  'dailyAvailability',
  'extensionEligibility',
  'reductionEligibility',
  'validateBookingSubmission',
  'messages',
  'MAINTENANCE_DAYS',
  'DEFAULT_TEST_TYPE',
  'DEFAULT_LEAD_SOURCE',
  'AGREEMENT_REFRESH_DELAY_MS',
  'SEARCH_MIN_CHARS',
  'SEARCH_DEBOUNCE_MS',
  'SEARCH_LIMIT',
  'SEARCH_RESULT_COLORS',
  'BOOKING_STATUS_COLORS',
  'AVAILABILITY_CARD_DAYS',
  'AVAILABILITY_CARD_ITEMS',
  'AVAILABILITY_RANGE_DAYS',
  'TWO_FACTOR_CODE_LENGTH',
  'TRUSTED_DEVICE_DAYS',
  'PRIVACY_POLICY_LAST_UPDATED',
  'PRIVACY_METHOD',
  'PRIVACY_POLICY_URL',
  'PRIVACY_POLICY_HASH_PLACEHOLDER',
  'QUERY_DEFAULTS',
  'TOAST_LIMIT',
  'TOAST_REMOVE_DELAY_MS',
  'TOAST_DURATION_MS',
  'TOAST_SWIPE_THRESHOLD_PX',
  'TOAST_HOTKEY',
  'TOAST_VIEWPORT_MAX_WIDTH_PX',
  'TOOLTIP_DELAY_MS',
  'SCROLL_HIDE_DELAY_MS',
  'COMMAND_LIST_MAX_HEIGHT_PX',
  'DEFAULT_PRACTICE_TIME_ZONE',
  'SESSION_IDLE_MINUTES_DEFAULT',
  'PASSWORD_EXPIRY_DAYS_DEFAULT',
  'LOCKOUT_THRESHOLD',
  'LOCKOUT_MINUTES',
  'PASSWORD_MIN_LENGTH',
  'NAVIGATION',
  'navigationFor',
  'ROUTES',
  'PUBLIC_ROUTES',
  'AUTHENTICATED_ROUTES',
  'privacyNotice',
  'privacyNoticeText',
  'defineAbilityFor',
  'canAccessRoute',
  'naiveDailyAvailability',
  'naiveAvailableKitsOfType',
] as const;

describe('@wellrest/core exports', () => {
  const exported = new Map(Object.entries(core));
  it.each(REQUIRED)('exports %s', (name) => {
    expect(exported.get(name)).toBeDefined();
  });

  it('keeps the numeric constants of spec §9', () => {
    expect(core.TOOLTIP_DELAY_MS).toBe(700);
    expect(core.SCROLL_HIDE_DELAY_MS).toBe(600);
    expect(core.COMMAND_LIST_MAX_HEIGHT_PX).toBe(300);
    expect(core.DEFAULT_PRACTICE_TIME_ZONE).toBe('America/New_York');
    expect(core.SESSION_IDLE_MINUTES_DEFAULT).toBe(15);
    expect(core.PASSWORD_EXPIRY_DAYS_DEFAULT).toBe(90);
    expect(core.LOCKOUT_THRESHOLD).toBe(5);
    expect(core.LOCKOUT_MINUTES).toBe(15);
    expect(core.PASSWORD_MIN_LENGTH).toBe(12);
  });
});
