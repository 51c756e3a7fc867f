import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  EditKitInput,
  FleetCounts,
  InventoryKitHistoryEntry,
  Kit,
  KitStatus,
  KitType,
  KitUpkeepInput,
  MaintenanceScheduleInput,
  NewKitInput,
} from '@wellrest/core';
import { BOOKING_DATA_KEYS } from '@/features/bookings/queries';
import { apiRequest } from '@/lib/api';

/*
 * The inventory's data. Each key's first element is the API path (with its query string) the
 * default query function fetches.
 */

/** A kit as GET /api/kits answers it: with its upkeep (cleaning gate, last cleaning and maintenance). */
export interface InventoryKit extends Kit {
  status: KitStatus;
  cleaningSince: string | null;
  cleaningDueOn: string | null;
  cleaningOverdue: boolean;
  retiredAt: string | null;
  lastCleanedAt: string | null;
  lastMaintenanceOn: string | null;
}

export interface OverdueReturn {
  bookingId: number;
  patientId: number;
  patientName: string;
  kitId: number | null;
  kitLabel: string | null;
  kitType: KitType;
  returnDate: string;
  daysOverdue: number;
}

export interface MaintenanceDue {
  kitId: number;
  kitLabel: string;
  kitType: KitType;
  lastDoneOn: string | null;
  dueOn: string;
}

export interface InventoryOverview {
  today: string;
  counts: Record<KitStatus, number>;
  countsByType: Record<KitType, Record<KitStatus, number>>;
  /** Core's kitCounts: free to book today, booked today, on the shelf now (as the dashboard counts). */
  fleet?: FleetCounts;
  total: number;
  overdueCleanings: InventoryKit[];
  overdueReturns: OverdueReturn[];
  maintenanceDue: MaintenanceDue[];
}

export interface MaintenanceSchedule {
  kitType: KitType;
  everyDays: number;
  notes: string | null;
  updatedAt: string;
}

export interface KitFilters {
  type?: KitType | '';
  status?: KitStatus | '';
  q?: string;
}

const KITS_PATH = '/api/kits';
const OVERVIEW_PATH = '/api/inventory/overview';
const SCHEDULES_PATH = '/api/maintenance-schedules';

export function kitsPath(filters: KitFilters = {}): string {
  const params = new URLSearchParams();
  if (filters.type) params.set('type', filters.type);
  if (filters.status) params.set('status', filters.status);
  if (filters.q?.trim()) params.set('q', filters.q.trim());
  return params.size > 0 ? `${KITS_PATH}?${params}` : KITS_PATH;
}

export function useInventoryKits(filters: KitFilters = {}) {
  return useQuery<InventoryKit[]>({ queryKey: [kitsPath(filters)], placeholderData: (previous) => previous });
}

export function useInventoryOverview() {
  return useQuery<InventoryOverview>({ queryKey: [OVERVIEW_PATH] });
}

export function useKitHistory(kitId: number | null) {
  return useQuery<InventoryKitHistoryEntry[]>({
    queryKey: [`${KITS_PATH}/${kitId}/history`],
    enabled: kitId !== null,
  });
}

export function useMaintenanceSchedules() {
  return useQuery<{ schedules: MaintenanceSchedule[]; due: MaintenanceDue[] }>({
    queryKey: [SCHEDULES_PATH],
  });
}

/** Refetches everything a kit change can affect: kit lists, the overview, schedules and bookings. */
export async function refreshInventory(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({
      predicate: (query) => {
        const path = String(query.queryKey[0]);
        return path.startsWith(KITS_PATH) || path === OVERVIEW_PATH || path === SCHEDULES_PATH;
      },
    }),
    ...BOOKING_DATA_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  ]);
}

function useKitMutation<TVariables>(call: (variables: TVariables) => Promise<InventoryKit>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => refreshInventory(queryClient),
  });
}

export function useCreateKit() {
  return useKitMutation((input: NewKitInput) => apiRequest<InventoryKit>('POST', KITS_PATH, input));
}

export function useUpdateKit() {
  return useKitMutation(({ id, input }: { id: number; input: EditKitInput }) =>
    apiRequest<InventoryKit>('PATCH', `${KITS_PATH}/${id}`, input),
  );
}

export function useRetireKit() {
  return useKitMutation((id: number) => apiRequest<InventoryKit>('POST', `${KITS_PATH}/${id}/retire`));
}

export function useLogCleaning() {
  return useKitMutation(({ id, input }: { id: number; input: KitUpkeepInput }) =>
    apiRequest<InventoryKit>('POST', `${KITS_PATH}/${id}/cleanings`, input),
  );
}

export function useLogMaintenance() {
  return useKitMutation(({ id, input }: { id: number; input: KitUpkeepInput }) =>
    apiRequest<InventoryKit>('POST', `${KITS_PATH}/${id}/maintenance`, input),
  );
}

export function useSaveSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MaintenanceScheduleInput) =>
      apiRequest<MaintenanceSchedule>('POST', SCHEDULES_PATH, input),
    onSuccess: () => refreshInventory(queryClient),
  });
}
