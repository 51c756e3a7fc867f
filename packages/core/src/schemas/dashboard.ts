import { z } from 'zod';

const count = z.number().int().nonnegative();

/** Response of GET /api/dashboard/stats: the numbers on the dashboard's stat cards. */
export const DashboardStats = z.object({
  totalPatients: count,
  activeBookings: count,
  pendingBookings: count,
  todaysPickups: count,
  todaysReturns: count,
  totalKits: count,
  availableKits: count,
});
export type DashboardStats = z.infer<typeof DashboardStats>;

/** Response of POST /api/ghl/sync. */
export const GhlSyncResult = z.object({
  message: z.string(),
  imported: count.optional(),
  pushed: count.optional(),
  rejected: count.optional(),
  conflicts: count.optional(),
});
export type GhlSyncResult = z.infer<typeof GhlSyncResult>;
