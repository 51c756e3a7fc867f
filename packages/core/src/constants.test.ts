import { describe, expect, it } from 'vitest';
import {
  AGREEMENT_REFRESH_DELAY_MS,
  AVAILABILITY_CARD_DAYS,
  AVAILABILITY_CARD_ITEMS,
  AVAILABILITY_RANGE_DAYS,
  BOOKING_STATUS_COLORS,
  bookingStatusColor,
  DEFAULT_LEAD_SOURCE,
  DEFAULT_TEST_TYPE,
  MAINTENANCE_DAYS,
  PRIVACY_METHOD,
  PRIVACY_POLICY_LAST_UPDATED,
  PRIVACY_POLICY_URL,
  QUERY_DEFAULTS,
  SEARCH_DEBOUNCE_MS,
  SEARCH_LIMIT,
  SEARCH_MIN_CHARS,
  SEARCH_RESULT_COLORS,
  TEST_END_OFFSET_DAYS,
  TEST_LENGTH_DAYS,
  TOAST_DURATION_MS,
  TOAST_HOTKEY,
  TOAST_LIMIT,
  TOAST_REMOVE_DELAY_MS,
  TOAST_SWIPE_THRESHOLD_PX,
  TOAST_VIEWPORT_MAX_WIDTH_PX,
  TRUSTED_DEVICE_DAYS,
  TWO_FACTOR_CODE_LENGTH,
} from './constants.js';

describe('constants of spec §9', () => {
  it('test lengths and defaults', () => {
    expect(TEST_LENGTH_DAYS).toEqual({ '2-day': 2, '3-day': 3 });
    expect(TEST_END_OFFSET_DAYS).toEqual({ '2-day': 1, '3-day': 2 });
    expect(MAINTENANCE_DAYS).toBe(1);
    expect(DEFAULT_TEST_TYPE).toBe('2-day');
    expect(DEFAULT_LEAD_SOURCE).toBe('Direct');
    expect(AGREEMENT_REFRESH_DELAY_MS).toBe(2000);
  });

  it('search, availability cards, 2FA and privacy', () => {
    expect([SEARCH_MIN_CHARS, SEARCH_DEBOUNCE_MS, SEARCH_LIMIT]).toEqual([2, 300, 10]);
    expect(SEARCH_RESULT_COLORS).toEqual({
      patient: 'blue',
      booking: 'green',
      physician: 'purple',
      referral: 'orange',
    });
    expect([AVAILABILITY_CARD_DAYS, AVAILABILITY_CARD_ITEMS, AVAILABILITY_RANGE_DAYS]).toEqual([3, 2, 14]);
    expect([TWO_FACTOR_CODE_LENGTH, TRUSTED_DEVICE_DAYS]).toEqual([6, 30]);
    expect([PRIVACY_POLICY_LAST_UPDATED, PRIVACY_METHOD, PRIVACY_POLICY_URL]).toEqual([
      'January 1, 2025',
      'manual',
      '/privacy-policy',
    ]);
  });

  it('status colours, with grey for anything else', () => {
    expect(BOOKING_STATUS_COLORS).toEqual({
      pending: 'yellow',
      confirmed: 'green',
      picked_up: 'purple',
      completed: 'blue',
      cancelled: 'red',
      other: 'grey',
    });
    expect(bookingStatusColor('picked_up')).toBe('purple');
    expect(bookingStatusColor('on_hold')).toBe('grey');
    expect(bookingStatusColor('toString')).toBe('grey');
  });

  it('query defaults: retry twice with 1 s doubling to at most 30 s', () => {
    expect(QUERY_DEFAULTS).toMatchObject({
      staleTime: 0,
      gcTime: 0,
      retry: 2,
      mutationRetry: 1,
      networkMode: 'always',
    });
    expect([0, 1, 2, 3, 4, 5, 10].map(QUERY_DEFAULTS.retryDelay)).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000,
    ]);
  });

  it('toasts', () => {
    expect([TOAST_LIMIT, TOAST_REMOVE_DELAY_MS, TOAST_DURATION_MS]).toEqual([1, 1_000_000, 5000]);
    expect([TOAST_SWIPE_THRESHOLD_PX, TOAST_VIEWPORT_MAX_WIDTH_PX]).toEqual([50, 420]);
    expect(TOAST_HOTKEY).toEqual(['F8']);
  });
});
