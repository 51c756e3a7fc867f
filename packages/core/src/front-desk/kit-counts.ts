import { MAINTENANCE_DAYS } from '../constants.js';
import { addDays } from '../dates/calendar.js';
import {
  type BookingStatus,
  isHoldingStatus,
  isKitInService,
  KIT_TYPES,
  type KitStatus,
  type KitType,
} from '../enums.js';

// "Available" meant two things on two screens (free to book today on the dashboard, on the shelf
// now in Inventory). Each is named here once, and both screens count with this function.

export interface CountedKit {
  id: number;
  type: KitType;
  status: KitStatus;
}

/** A booking as far as holding a kit goes. */
export interface CountedHold {
  kitId: number | null;
  status: BookingStatus;
  startDate: string;
  endDate: string;
}

export interface KitCounts {
  /** Every kit, whatever its status. */
  total: number;
  /** Kits that can be booked at all: not in maintenance, retired or lost. */
  inService: number;
  /** Free to book today: in service and held by no active booking today (maintenance day included). */
  freeToday: number;
  /** Booked today: in service and held by an active booking today (out with a patient, or waiting for one). */
  heldToday: number;
  /** On the shelf now: status 'available', physically in the clinic and ready to go out. */
  onShelf: number;
  /** Out with a patient now: status 'in_use'. */
  withPatients: number;
}

export interface FleetCounts {
  all: KitCounts;
  byType: Record<KitType, KitCounts>;
}

const zero = (): KitCounts => ({
  total: 0,
  inService: 0,
  freeToday: 0,
  heldToday: 0,
  onShelf: 0,
  withPatients: 0,
});

/** Ids of the kits an active booking holds on `date`: from its start through the maintenance day after its end. */
export function kitsHeldOn(holds: readonly CountedHold[], date: string): Set<number> {
  const held = new Set<number>();
  for (const hold of holds) {
    if (hold.kitId === null || !isHoldingStatus(hold.status)) continue;
    if (hold.startDate <= date && date <= addDays(hold.endDate, MAINTENANCE_DAYS)) held.add(hold.kitId);
  }
  return held;
}

/**
 * The fleet's counts on `today`, for all kits and per kit type. `freeToday + heldToday` is the
 * number of kits in service; `onShelf` and `withPatients` follow the kits' own statuses.
 */
export function kitCounts(
  kits: readonly CountedKit[],
  holds: readonly CountedHold[],
  today: string,
): FleetCounts {
  const held = kitsHeldOn(holds, today);
  const all = zero();
  const byType = Object.fromEntries(KIT_TYPES.map((type) => [type, zero()])) as Record<KitType, KitCounts>;
  for (const kit of kits) {
    for (const counts of [all, byType[kit.type]]) {
      counts.total++;
      if (kit.status === 'available') counts.onShelf++;
      if (kit.status === 'in_use') counts.withPatients++;
      if (!isKitInService(kit)) continue;
      counts.inService++;
      if (held.has(kit.id)) counts.heldToday++;
      else counts.freeToday++;
    }
  }
  return { all, byType };
}
