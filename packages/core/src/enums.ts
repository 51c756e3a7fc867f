import { z } from 'zod';

// The schemas are marked pure: a bundle that uses only the constant lists (the console's first
// screen) leaves zod out.

/** Kit models the practice lends out. */
export const KIT_TYPES = ['Somfit', 'Z-Machine', 'SleepView'] as const;
export const KitType = /* @__PURE__ */ z.enum(KIT_TYPES);
export type KitType = z.infer<typeof KitType>;

export const TEST_TYPES = ['2-day', '3-day'] as const;
export const TestType = /* @__PURE__ */ z.enum(TEST_TYPES);
export type TestType = z.infer<typeof TestType>;

export const BOOKING_STATUSES = ['pending', 'confirmed', 'picked_up', 'completed', 'cancelled'] as const;
export const BookingStatus = /* @__PURE__ */ z.enum(BOOKING_STATUSES);
export type BookingStatus = z.infer<typeof BookingStatus>;

/** Statuses in which a booking holds its kit (DESIGN.md §2). Completed and cancelled hold nothing. */
export const HOLDING_STATUSES = ['pending', 'confirmed', 'picked_up'] as const;
export const HoldingStatus = /* @__PURE__ */ z.enum(HOLDING_STATUSES);
export type HoldingStatus = z.infer<typeof HoldingStatus>;

export const KIT_STATUSES = ['available', 'in_use', 'cleaning', 'maintenance', 'retired', 'lost'] as const;
export const KitStatus = /* @__PURE__ */ z.enum(KIT_STATUSES);
export type KitStatus = z.infer<typeof KitStatus>;

/** A kit in one of these statuses is out of service: it never counts as an available unit. */
export const OUT_OF_SERVICE_KIT_STATUSES = ['maintenance', 'retired', 'lost'] as const;

export const ROLES = ['admin', 'medical_director', 'scheduler', 'physician', 'staff', 'technician'] as const;
export const Role = /* @__PURE__ */ z.enum(ROLES);
export type Role = z.infer<typeof Role>;

export const GENDERS = ['male', 'female', 'other', 'prefer-not-to-say'] as const;
export const Gender = /* @__PURE__ */ z.enum(GENDERS);
export type Gender = z.infer<typeof Gender>;

export const LEAD_SOURCES = ['Direct', 'Referral', 'Online', 'GHL', 'Other'] as const;
export const LeadSource = /* @__PURE__ */ z.enum(LEAD_SOURCES);
export type LeadSource = z.infer<typeof LeadSource>;

export const SEARCH_RESULT_TYPES = ['patient', 'booking', 'physician', 'referral'] as const;
export const SearchResultType = /* @__PURE__ */ z.enum(SEARCH_RESULT_TYPES);
export type SearchResultType = z.infer<typeof SearchResultType>;

const holdingStatuses: ReadonlySet<string> = new Set(HOLDING_STATUSES);
const outOfServiceStatuses: ReadonlySet<string> = new Set(OUT_OF_SERVICE_KIT_STATUSES);

/** True when a booking in this status holds its kit. */
export function isHoldingStatus(status: string): boolean {
  return holdingStatuses.has(status);
}

/** True unless the kit is in maintenance, retired or lost. A kit without a status is in service. */
export function isKitInService(kit: { status?: KitStatus | null | undefined }): boolean {
  return kit.status == null || !outOfServiceStatuses.has(kit.status);
}
