import {
  addDays,
  dailyAvailability,
  dayOfWeek,
  isKitInService,
  isValidStartDate,
  KIT_TYPES,
  type KitType,
} from '@wellrest/core';
import { monthOf, shiftMonth } from '@/features/bookings/bookingCalendar';

/** The kit and booking fields the availability engine reads. */
export type DailyKit = Parameters<typeof dailyAvailability>[0]['kits'][number];
export type DailyBooking = Parameters<typeof dailyAvailability>[0]['bookings'][number];

export type CalendarView = 'month' | 'week';

/** What happens to a booking on a day: its kit is picked up, a test night, or the kit comes back. */
export type CalendarEventKind = 'pickup' | 'night' | 'return';

export interface CalendarEvent<B> {
  kind: CalendarEventKind;
  booking: B;
}

/** The first and last day the view shows: whole weeks, Sunday to Saturday. */
export function visibleRange(view: CalendarView, anchor: string): { from: string; to: string } {
  if (view === 'week') {
    const from = addDays(anchor, -dayOfWeek(anchor));
    return { from, to: addDays(from, 6) };
  }
  const first = monthOf(anchor);
  const last = addDays(shiftMonth(first, 1), -1);
  return { from: addDays(first, -dayOfWeek(first)), to: addDays(last, 6 - dayOfWeek(last)) };
}

/** The date the view moves to with the previous / next button. */
export function shiftAnchor(view: CalendarView, anchor: string, step: -1 | 1): string {
  return view === 'week' ? addDays(anchor, 7 * step) : shiftMonth(monthOf(anchor), step);
}

export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}

/**
 * Each day's pickups, test nights and returns, in that order, pickups and returns by kit type.
 * A test night is every night from the start date through the end date; cancelled bookings
 * have none of these.
 */
export function eventsByDay<
  B extends Pick<DailyBooking, 'status' | 'startDate' | 'endDate' | 'returnDate' | 'kitType' | 'id'>,
>(bookings: readonly B[], from: string, to: string): Map<string, CalendarEvent<B>[]> {
  const days = new Map<string, CalendarEvent<B>[]>();
  const add = (date: string, event: CalendarEvent<B>) => {
    if (date < from || date > to) return;
    const list = days.get(date);
    if (list) list.push(event);
    else days.set(date, [event]);
  };
  for (const booking of bookings) {
    if (booking.status === 'cancelled') continue;
    add(booking.startDate, { kind: 'pickup', booking });
    for (let night = booking.startDate; night <= booking.endDate && night <= to; night = addDays(night, 1)) {
      add(night, { kind: 'night', booking });
    }
    add(booking.returnDate, { kind: 'return', booking });
  }
  const order: Record<CalendarEventKind, number> = { pickup: 0, return: 1, night: 2 };
  const typeOrder = (type: KitType) => KIT_TYPES.indexOf(type);
  for (const list of days.values()) {
    list.sort(
      (a, b) =>
        order[a.kind] - order[b.kind] ||
        typeOrder(a.booking.kitType) - typeOrder(b.booking.kitType) ||
        a.booking.id - b.booking.id,
    );
  }
  return days;
}

/** Per day, the in-service units of each kit type no booking holds that day (maintenance day included). */
export function availableUnitsByDay(
  kits: readonly DailyKit[],
  bookings: readonly DailyBooking[],
  from: string,
  to: string,
  today: string,
): Map<string, Record<KitType, number>> {
  const days = daysBetween(from, to).length;
  const result = new Map<string, Record<KitType, number>>();
  for (const type of KIT_TYPES) {
    const ofType = kits.filter((kit) => kit.type === type && isKitInService(kit));
    const ids = new Set(ofType.map((kit) => kit.id));
    const held = bookings.filter((booking) => booking.kitId !== null && ids.has(booking.kitId));
    for (const day of dailyAvailability(
      { kits: ofType, bookings: held, patients: [] },
      { from, days, today },
    )) {
      const counts = result.get(day.date) ?? ({} as Record<KitType, number>);
      counts[type] = day.availableUnits;
      result.set(day.date, counts);
    }
  }
  return result;
}

/** A day a test may start on: today or later, and a valid start day (spec §5; Friday to Sunday never). */
export function isStartableDay(date: string, today: string): boolean {
  return date >= today && (isValidStartDate(date, '2-day') || isValidStartDate(date, '3-day'));
}

/** Tailwind classes of each kit type's colour, the same on every view. */
export const KIT_TYPE_STYLES: Record<KitType, { dot: string; chip: string; short: string }> = {
  Somfit: { dot: 'bg-teal-600', chip: 'border-l-teal-600 bg-teal-50 text-teal-950', short: 'SOM' },
  'Z-Machine': {
    dot: 'bg-indigo-600',
    chip: 'border-l-indigo-600 bg-indigo-50 text-indigo-950',
    short: 'ZM',
  },
  SleepView: { dot: 'bg-orange-600', chip: 'border-l-orange-600 bg-orange-50 text-orange-950', short: 'SV' },
};
