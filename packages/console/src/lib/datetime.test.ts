import { afterEach, describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDatesInText,
  formatDateTime,
  formatTime,
  practiceTimeZone,
  practiceToday,
  setPracticeTimeZone,
  viewerZoneDiffers,
} from './datetime';

// Vitest runs in the machine's zone; the practice zone is set per test. Instants are chosen so
// the practice's date differs from UTC's.
const LATE_EVENING_NY = '2026-12-17T03:30:00Z'; // Dec 16, 10:30 PM in New York

afterEach(() => setPracticeTimeZone('America/New_York'));

describe('the console date/time formatter', () => {
  it('reads calendar dates as written and instants in the practice zone', () => {
    setPracticeTimeZone('America/New_York');
    expect(formatDate('2026-12-16')).toBe('Dec 16, 2026');
    expect(formatDate(LATE_EVENING_NY)).toBe('Dec 16, 2026');
    setPracticeTimeZone('Asia/Tokyo');
    expect(formatDate(LATE_EVENING_NY)).toBe('Dec 17, 2026');
  });

  it('shows times in the practice zone, naming it when the viewer is elsewhere', () => {
    setPracticeTimeZone('America/New_York');
    const time = formatTime(LATE_EVENING_NY);
    expect(time.startsWith('10:30 PM')).toBe(true);
    expect(time.endsWith(' EST')).toBe(viewerZoneDiffers(new Date(LATE_EVENING_NY)));
    expect(formatDateTime(LATE_EVENING_NY).startsWith('Dec 16, 2026, 10:30 PM')).toBe(true);
    expect(formatDateTime(null)).toBe('—');
    expect(formatDateTime('not a date')).toBe('—');
  });

  it("names the zone when the practice's clock differs from the viewer's", () => {
    const viewer = Intl.DateTimeFormat().resolvedOptions().timeZone;
    setPracticeTimeZone(viewer);
    expect(viewerZoneDiffers()).toBe(false);
    setPracticeTimeZone(viewer === 'Pacific/Kiritimati' ? 'Pacific/Niue' : 'Pacific/Kiritimati');
    expect(viewerZoneDiffers()).toBe(true);
    expect(formatTime(LATE_EVENING_NY)).toMatch(/ (GMT\+14|GMT-11)$/);
  });

  it('computes today in the practice zone and ignores unknown zones', () => {
    setPracticeTimeZone('Mars/Olympus');
    expect(practiceTimeZone()).toBe('America/New_York');
    expect(practiceToday(new Date(LATE_EVENING_NY))).toBe('2026-12-16');
    setPracticeTimeZone('Asia/Tokyo');
    expect(practiceToday(new Date(LATE_EVENING_NY))).toBe('2026-12-17');
  });

  it('rewrites ISO dates inside search subtitles as tables show them', () => {
    setPracticeTimeZone('America/New_York');
    expect(formatDatesInText('Somfit · 2026-11-25 · confirmed')).toBe('Somfit · Nov 25, 2026 · confirmed');
  });
});
