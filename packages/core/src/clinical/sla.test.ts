import { describe, expect, it } from 'vitest';
import type { ReferralUrgency } from '../public.js';
import type { ReferralStatus } from './model.js';
import {
  addBusinessMs,
  businessMsBetween,
  computeSla,
  DEFAULT_PRACTICE_CALENDAR,
  type PracticeCalendar,
  type ReferralClock,
  type SlaDefinition,
  worstSlaState,
  zonedInstant,
} from './sla.js';

const HOUR = 3_600_000;
const NY: PracticeCalendar = { ...DEFAULT_PRACTICE_CALENDAR, timeZone: 'America/New_York' };

function definition(over: Partial<SlaDefinition> = {}): SlaDefinition {
  return {
    id: 1,
    name: 'Received to scheduled',
    fromStage: 'received',
    toStage: 'scheduled',
    targetHours: 8,
    businessHours: true,
    urgencies: [],
    active: true,
    ...over,
  };
}

function clock(
  stageTimes: ReferralClock['stageTimes'],
  status: ReferralStatus = 'received',
  urgency: ReferralUrgency = 'routine',
): ReferralClock {
  return { urgency, status, stageTimes };
}

describe('practice time', () => {
  it('finds local wall-clock instants on both sides of a DST change', () => {
    // New York: EST (UTC-5) before 8 March 2026, EDT (UTC-4) after; back to EST on 1 November.
    expect(new Date(zonedInstant('2026-03-06', 8 * 60, 'America/New_York')).toISOString()).toBe(
      '2026-03-06T13:00:00.000Z',
    );
    expect(new Date(zonedInstant('2026-03-09', 8 * 60, 'America/New_York')).toISOString()).toBe(
      '2026-03-09T12:00:00.000Z',
    );
    expect(new Date(zonedInstant('2026-11-02', 8 * 60, 'America/New_York')).toISOString()).toBe(
      '2026-11-02T13:00:00.000Z',
    );
    // A zone ahead of UTC, with its change on another weekend.
    expect(new Date(zonedInstant('2026-03-30', 9 * 60, 'Europe/Berlin')).toISOString()).toBe(
      '2026-03-30T07:00:00.000Z',
    );
  });

  it('counts business hours over a weekend and across the spring DST change', () => {
    const fri16 = Date.parse('2026-03-06T21:00:00Z'); // Friday 16:00 EST
    const mon0830 = Date.parse('2026-03-09T12:30:00Z'); // Monday 08:30 EDT
    expect(businessMsBetween(fri16, mon0830, NY)).toBe(1.5 * HOUR);
    // Two business hours from Friday 16:00: one on Friday, one on Monday, due Monday 09:00 EDT.
    expect(new Date(addBusinessMs(fri16, 2 * HOUR, NY) as number).toISOString()).toBe(
      '2026-03-09T13:00:00.000Z',
    );
  });

  it('counts a day with a DST change in opening hours as the hours that day has', () => {
    const always: PracticeCalendar = {
      timeZone: 'America/New_York',
      workDays: [0, 1, 2, 3, 4, 5, 6],
      open: '00:00',
      close: '23:00',
      holidays: [],
    };
    const sunStart = zonedInstant('2026-03-08', 0, always.timeZone);
    const monStart = zonedInstant('2026-03-09', 0, always.timeZone);
    expect(businessMsBetween(sunStart, monStart, always)).toBe(22 * HOUR);
    const fallSun = zonedInstant('2026-11-01', 0, always.timeZone);
    expect(businessMsBetween(fallSun, zonedInstant('2026-11-02', 0, always.timeZone), always)).toBe(
      24 * HOUR,
    );
  });

  it('skips holidays', () => {
    const withHoliday: PracticeCalendar = { ...NY, holidays: ['2026-07-03'] };
    const thu16 = Date.parse('2026-07-02T20:00:00Z'); // Thursday 16:00 EDT
    expect(new Date(addBusinessMs(thu16, 3 * HOUR, withHoliday) as number).toISOString()).toBe(
      '2026-07-06T14:00:00.000Z',
    );
    expect(businessMsBetween(thu16, Date.parse('2026-07-06T14:00:00Z'), withHoliday)).toBe(3 * HOUR);
    // Without the holiday, Friday counts.
    expect(new Date(addBusinessMs(thu16, 3 * HOUR, NY) as number).toISOString()).toBe(
      '2026-07-03T14:00:00.000Z',
    );
  });

  it('starts counting at opening time when started outside business hours', () => {
    const sat = Date.parse('2026-07-11T15:00:00Z');
    expect(new Date(addBusinessMs(sat, HOUR, NY) as number).toISOString()).toBe('2026-07-13T13:00:00.000Z');
  });
});

describe('SLA clocks', () => {
  const received = '2026-07-06T13:00:00Z'; // Monday 09:00 EDT

  it('is on track below 80 % of the target, at risk from 80 %, breached past it', () => {
    const c = clock({ received });
    const at = (iso: string) => computeSla(definition(), c, NY, new Date(iso));
    expect(at('2026-07-06T18:00:00Z')).toMatchObject({ state: 'on_track', elapsedHours: 5 });
    expect(at('2026-07-06T19:24:00Z')).toMatchObject({ state: 'at_risk', elapsedHours: 6.4 });
    expect(at('2026-07-06T20:59:00Z')?.state).toBe('at_risk');
    // Monday ends at 17:00 with 8 h used; Tuesday 08:30 is past the target.
    expect(at('2026-07-07T12:30:00Z')).toMatchObject({ state: 'breached', elapsedHours: 8.5 });
    expect(at('2026-07-06T18:00:00Z')).toMatchObject({
      started: '2026-07-06T13:00:00.000Z',
      due: '2026-07-06T21:00:00.000Z',
      completedAt: null,
    });
  });

  it('is met or missed once the end stage is reached, whatever the time now', () => {
    const later = new Date('2027-01-01T00:00:00Z');
    const met = computeSla(
      definition(),
      clock({ received, scheduled: '2026-07-06T21:00:00Z' }, 'scheduled'),
      NY,
      later,
    );
    expect(met).toMatchObject({ state: 'met', elapsedHours: 8, completedAt: '2026-07-06T21:00:00.000Z' });
    const missed = computeSla(
      definition(),
      clock({ received, scheduled: '2026-07-07T12:01:00Z' }, 'tested'),
      NY,
      later,
    );
    expect(missed?.state).toBe('missed');
  });

  it('counts the wall clock when asked, weekends and nights included', () => {
    const wall = definition({ businessHours: false, targetHours: 48 });
    const fri = clock({ received: '2026-07-10T20:00:00Z' });
    expect(computeSla(wall, fri, NY, new Date('2026-07-12T10:00:00Z'))).toMatchObject({
      elapsedHours: 38,
      state: 'on_track',
      due: '2026-07-12T20:00:00.000Z',
    });
    expect(computeSla(wall, fri, NY, new Date('2026-07-12T21:00:00Z'))?.state).toBe('breached');
  });

  it('applies only to the urgencies named, and only once started', () => {
    const stat = definition({ urgencies: ['stat'], businessHours: false, targetHours: 4 });
    const now = new Date('2026-07-06T14:00:00Z');
    expect(computeSla(stat, clock({ received }, 'received', 'routine'), NY, now)).toBeNull();
    expect(computeSla(stat, clock({ received }, 'received', 'urgent'), NY, now)).toBeNull();
    expect(computeSla(stat, clock({ received }, 'received', 'stat'), NY, now)?.state).toBe('on_track');
    const fromScheduled = definition({ fromStage: 'scheduled', toStage: 'tested' });
    expect(computeSla(fromScheduled, clock({ received }), NY, now)).toBeNull();
    expect(computeSla(definition({ active: false }), clock({ received }), NY, now)).toBeNull();
  });

  it('does not apply to a referral that left the pathway before the end stage', () => {
    const now = new Date('2026-07-08T14:00:00Z');
    expect(computeSla(definition(), clock({ received }, 'cancelled'), NY, now)).toBeNull();
    expect(computeSla(definition(), clock({ received }, 'declined'), NY, now)).toBeNull();
  });

  it('counts a skipped stage as reached when a later one was', () => {
    const contactedToScheduled = definition({ fromStage: 'contacted', toStage: 'tested' });
    const c = clock({ received, scheduled: '2026-07-06T15:00:00Z' }, 'scheduled');
    expect(computeSla(contactedToScheduled, c, NY, new Date('2026-07-06T16:00:00Z'))).toMatchObject({
      started: '2026-07-06T15:00:00.000Z',
      elapsedHours: 1,
    });
  });

  it('shows the worst state of several clocks', () => {
    const base = {
      definitionId: 1,
      name: '',
      started: '',
      due: null,
      completedAt: null,
      elapsedHours: 0,
      targetHours: 1,
    };
    expect(worstSlaState([])).toBeNull();
    expect(
      worstSlaState([
        { ...base, state: 'met' },
        { ...base, state: 'at_risk' },
        { ...base, state: 'on_track' },
      ]),
    ).toBe('at_risk');
    expect(
      worstSlaState([
        { ...base, state: 'missed' },
        { ...base, state: 'breached' },
      ]),
    ).toBe('breached');
  });
});
