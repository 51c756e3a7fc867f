import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  API_PATHS,
  type CreatePatientInput,
  type LeadSource,
  type Page,
  type Patient,
  type PatientExportInput,
  type PatientTableSort,
  type UpdatePatientInput,
} from '@wellrest/core';
import { ApiError, apiRequest, getQueryFn, QueryError } from '@/lib/api';
import { rowsOf } from '@/lib/lists';
import { BOOKINGS_KEY, type BookingRow, PATIENTS_KEY } from '../bookings/queries';

/*
 * The patients screen's data. Every key starts with the patients path, so invalidating
 * PATIENTS_KEY (after a booking or a patient changes) refreshes the table, the panel and the
 * booking dialog's list alike.
 */

const fetchJson = getQueryFn<unknown>({ on401: 'throw' });

/** A 404 is an answer, not a hiccup: do not ask again. */
function retryUnlessMissing(failureCount: number, error: Error): boolean {
  if (error instanceof QueryError && (error.status === 404 || error.status === 403)) return false;
  return failureCount < 2;
}

export interface PatientTableParams {
  q: string;
  sort: PatientTableSort;
  leadSource: LeadSource | '';
  page: number;
  pageSize: number;
}

/** The query string of a table request: only what is set. */
export function patientTableSearch(params: PatientTableParams): string {
  const search = new URLSearchParams({
    page: String(params.page),
    pageSize: String(params.pageSize),
    sort: params.sort,
  });
  if (params.q.trim()) search.set('q', params.q.trim());
  if (params.leadSource) search.set('leadSource', params.leadSource);
  return search.toString();
}

/** One page of the patients table, sorted and filtered on the server; the last page stays while the next loads. */
export function usePatientPage(params: PatientTableParams) {
  const path = `${API_PATHS.patients}?${patientTableSearch(params)}`;
  return useQuery({
    queryKey: [...PATIENTS_KEY, 'page', params],
    queryFn: async (context) => (await fetchJson({ ...context, queryKey: [path] })) as Page<Patient>,
    placeholderData: keepPreviousData,
  });
}

export function usePatient(id: number | null) {
  return useQuery({
    queryKey: [...PATIENTS_KEY, 'detail', id],
    queryFn: async (context) =>
      (await fetchJson({ ...context, queryKey: [`${API_PATHS.patients}/${id}`] })) as Patient,
    enabled: id !== null,
    retry: retryUnlessMissing,
  });
}

/** How many of a patient's bookings the panel lists, newest first. */
export const PANEL_BOOKINGS_LIMIT = 50;

export function usePatientBookings(id: number | null) {
  const path = `${API_PATHS.bookings}?patientId=${id}&page=1&pageSize=${PANEL_BOOKINGS_LIMIT}&sort=-startDate`;
  return useQuery({
    queryKey: [...BOOKINGS_KEY, 'patient', id],
    queryFn: (context) => fetchJson({ ...context, queryKey: [path] }),
    enabled: id !== null,
    retry: retryUnlessMissing,
    select: (data: unknown) => ({
      rows: rowsOf<BookingRow>(data, 'bookings'),
      total:
        data && typeof data === 'object' && 'total' in data
          ? Number((data as { total: unknown }).total)
          : null,
    }),
  });
}

/** Creates a patient (no id) or changes one; refreshes every list that shows patients. */
export function useSavePatient(id: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({
      input,
      idempotencyKey,
    }: {
      input: CreatePatientInput | UpdatePatientInput;
      /** Makes a create safe to resend: the server answers one key once. */
      idempotencyKey?: string;
    }) =>
      id === null
        ? apiRequest<Patient>('POST', API_PATHS.patients, input, { idempotencyKey })
        : apiRequest<Patient>('PATCH', `${API_PATHS.patients}/${id}`, input),
    onSuccess: () => client.invalidateQueries({ queryKey: PATIENTS_KEY }),
  });
}

/** The file name the server gave in Content-Disposition, if any. */
function attachmentName(header: string | null): string | null {
  const match = /filename="([^"]+)"/.exec(header ?? '');
  return match?.[1] ?? null;
}

/**
 * Downloads the patients the filter matches as CSV. The filter travels in a POST body, never in
 * the URL, since a search term is often a patient's name.
 */
export async function downloadPatientsCsv(filter: PatientExportInput, fallbackName: string): Promise<void> {
  const response = await fetch(`${API_PATHS.patients}/export`, {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(filter),
  });
  if (!response.ok) {
    const text = await response.text();
    let data: unknown = { error: text };
    try {
      data = JSON.parse(text);
    } catch {
      // Not JSON: the text itself is the message.
    }
    throw new ApiError(response.status, data, response.statusText);
  }
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = attachmentName(response.headers.get('content-disposition')) ?? fallbackName;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // Revoked after the click has handed the file to the browser.
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}
