import { MAINTENANCE_DAYS } from '../constants.js';
import { addDays } from '../dates/calendar.js';
import type { BookingStatus, KitType } from '../enums.js';

// Kit utilisation, defined once: held kit-days ÷ in-service kit-days in a period, per kit and per
// kit type. A kit is in service from the day it entered service until the day it was retired; a
// booking that was not cancelled holds its kit from its start date through the maintenance day
// after its end date (DESIGN.md §2), so a completed test counts as it held the kit then.

export interface UtilisationKit {
  id: number;
  type: KitType;
  /** The first day the kit was in service. */
  inServiceFrom: string;
  /** The day it was retired (no longer in service from that day), or null. */
  retiredOn: string | null;
}

export interface UtilisationBooking {
  kitId: number | null;
  status: BookingStatus;
  startDate: string;
  endDate: string;
}

export interface Utilisation {
  /** Days of the period the kit was in service. */
  inServiceDays: number;
  /** Of those, days a booking held it. */
  heldDays: number;
  /** heldDays ÷ inServiceDays, from 0 to 1; null when the kit was never in service in the period. */
  utilisation: number | null;
}

export interface FleetUtilisation {
  byKit: Map<number, Utilisation>;
  /** Per type: the kits in service during the period, and their summed days. */
  byType: Map<KitType, Utilisation & { kits: number }>;
}

/** The later (earlier) of two ISO dates, which order as strings. */
const later = (a: string, b: string): string => (a < b ? b : a);
const earlier = (a: string, b: string): string => (a < b ? a : b);

const ratio = (held: number, inService: number): number | null => (inService > 0 ? held / inService : null);

/** Days from `from` to `to`, both included (0 when `to` is before `from`). */
function daysIn(from: string, to: string): number {
  if (to < from) return 0;
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** Utilisation of every kit and kit type over [from, to] (both included). */
export function kitUtilisation(
  kits: readonly UtilisationKit[],
  bookings: readonly UtilisationBooking[],
  period: { from: string; to: string },
): FleetUtilisation {
  const holdsByKit = new Map<number, UtilisationBooking[]>();
  for (const booking of bookings) {
    if (booking.kitId === null || booking.status === 'cancelled' || booking.endDate < booking.startDate)
      continue;
    const list = holdsByKit.get(booking.kitId) ?? [];
    list.push(booking);
    holdsByKit.set(booking.kitId, list);
  }
  const byKit = new Map<number, Utilisation>();
  const byType = new Map<KitType, Utilisation & { kits: number }>();
  for (const kit of kits) {
    const first = later(kit.inServiceFrom, period.from);
    const retiredLast = kit.retiredOn === null ? period.to : addDays(kit.retiredOn, -1);
    const last = earlier(retiredLast, period.to);
    const inServiceDays = daysIn(first, last);
    // Held days as a set of dates, so overlapping bookings (a data error) never count a day twice.
    const held = new Set<string>();
    if (inServiceDays > 0) {
      for (const booking of holdsByKit.get(kit.id) ?? []) {
        const holdEnd = addDays(booking.endDate, MAINTENANCE_DAYS);
        let day = later(booking.startDate, first);
        const stop = earlier(holdEnd, last);
        for (; day <= stop; day = addDays(day, 1)) held.add(day);
      }
    }
    const usage: Utilisation = {
      inServiceDays,
      heldDays: held.size,
      utilisation: ratio(held.size, inServiceDays),
    };
    byKit.set(kit.id, usage);
    if (inServiceDays === 0) continue;
    const total = byType.get(kit.type) ?? { kits: 0, inServiceDays: 0, heldDays: 0, utilisation: null };
    total.kits += 1;
    total.inServiceDays += usage.inServiceDays;
    total.heldDays += usage.heldDays;
    total.utilisation = ratio(total.heldDays, total.inServiceDays);
    byType.set(kit.type, total);
  }
  return { byKit, byType };
}
