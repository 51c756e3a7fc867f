import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API_PATHS, type GhlResolution, type GhlSyncReport } from '@wellrest/core';
import { apiRequest, getQueryFn } from '@/lib/api';
import { PATIENTS_KEY } from '../bookings/queries';

// The GoHighLevel sync report: recent runs, open rejections and conflicts (for one patient or all).

export const GHL_REPORT_KEY = [API_PATHS.ghlReport] as const;

const fetchJson = getQueryFn<unknown>({ on401: 'throw' });

export function ghlReportKey(patientId?: number): readonly unknown[] {
  return patientId === undefined ? GHL_REPORT_KEY : [...GHL_REPORT_KEY, { patientId }];
}

export function useGhlReport(options: { patientId?: number; enabled?: boolean } = {}) {
  const { patientId, enabled = true } = options;
  const path =
    patientId === undefined ? API_PATHS.ghlReport : `${API_PATHS.ghlReport}?patientId=${patientId}`;
  return useQuery({
    queryKey: ghlReportKey(patientId),
    queryFn: async (context) => (await fetchJson({ ...context, queryKey: [path] })) as GhlSyncReport,
    enabled,
  });
}

/** Staff's decision on a conflict; the report and the patients reload after it. */
export function useResolveGhlIssue() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ issueId, action }: { issueId: number; action: GhlResolution }) =>
      apiRequest<{ message: string }>('POST', API_PATHS.ghlResolve(issueId), { action }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: GHL_REPORT_KEY });
      void queryClient.invalidateQueries({ queryKey: PATIENTS_KEY });
    },
  });
}
