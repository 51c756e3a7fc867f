import type { KitType } from '@wellrest/core';

/** Day counts of one kit, or of all kits of a type, over the period (GET /api/kit-stats). */
export interface KitUsage {
  daysInService: number;
  daysInUse: number;
  daysCleaning: number;
  daysMaintenance: number;
  idleDays: number;
  bookings: number;
  /** Days a booking held the kit (test days and the maintenance day after). */
  heldDays: number;
  /** heldDays ÷ daysInService, 0 to 1 (core's kitUtilisation); null when never in service. */
  utilisation: number | null;
}

export interface KitTypeUsage extends KitUsage {
  kitType: KitType;
  kits: number;
}

export interface KitUsageRow extends KitUsage {
  kitId: number;
  kitLabel: string;
  kitType: KitType;
}

export interface KitStats {
  from: string;
  to: string;
  byType: KitTypeUsage[];
  byKit: KitUsageRow[];
}
