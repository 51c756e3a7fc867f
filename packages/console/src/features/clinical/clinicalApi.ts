import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type AppAbility,
  type CreateReferralInput,
  defineAbilityFor,
  type LetterheadInput,
  type MedicalDirectorDashboard,
  type PatientMatch,
  type PhysicianDashboardView,
  type PhysicianDetail,
  type PhysicianInput,
  type PhysicianStatus,
  type PhysicianSummary,
  type PracticeCalendar,
  type ReferralDetail,
  type ReferralListItem,
  type ReferralStatus,
  type ReferralUrgency,
  type SlaDashboardView,
  type SlaDefinition,
  type SlaDefinitionInput,
  type TestAssignment,
} from '@wellrest/core';
import { useMemo } from 'react';
import { ApiError, apiRequest, getQueryFn } from '@/lib/api';
import { useCurrentUser } from '../auth/useCurrentUser';

// The clinical screens' data. Every key starts with CLINICAL_KEY so one invalidation after a
// change refreshes physicians, referrals, interpretations and SLA figures together.

export const CLINICAL_KEY = ['/api/clinical'] as const;
const fetchJson = getQueryFn<unknown>({ on401: 'throw' });

function useJson<T>(path: string | null, enabled = true) {
  return useQuery({
    queryKey: [...CLINICAL_KEY, path],
    queryFn: async (context) => (await fetchJson({ ...context, queryKey: [path as string] })) as T,
    enabled: enabled && path !== null,
  });
}

/** What the signed-in user may do, as the server would decide it. */
export function useAbility(): { ability: AppAbility; user: ReturnType<typeof useCurrentUser>['user'] } {
  const { user } = useCurrentUser();
  const ability = useMemo(() => defineAbilityFor(user), [user]);
  return { ability, user };
}

function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

export function usePhysicians(filters: { q?: string; status?: PhysicianStatus | '' } = {}) {
  return useJson<PhysicianSummary[]>(`/api/physicians${query(filters)}`);
}

export function physiciansCsvUrl(filters: { q?: string; status?: PhysicianStatus | '' }): string {
  return `/api/physicians/export.csv${query(filters)}`;
}

export function usePhysician(id: number) {
  return useJson<PhysicianDetail>(`/api/physicians/${id}`);
}

export interface NpiCheck {
  valid: boolean;
  message: string;
  existing: { id: number; name: string } | null;
}

export function useNpiCheck(npi: string) {
  return useJson<NpiCheck>(`/api/physicians/npi-check${query({ npi })}`, npi.length === 10);
}

export function useReferrals(filters: {
  status?: ReferralStatus | '';
  urgency?: ReferralUrgency | '';
  physicianId?: number;
  q?: string;
}) {
  return useJson<ReferralListItem[]>(`/api/referrals${query(filters)}`);
}

export function useReferral(id: number | null) {
  return useJson<ReferralDetail>(id === null ? null : `/api/referrals/${id}`);
}

export function usePatientMatches(id: number, enabled: boolean) {
  return useJson<PatientMatch[]>(`/api/referrals/${id}/patient-matches`, enabled);
}

export function usePhysicianDashboard() {
  return useJson<PhysicianDashboardView>('/api/physician-dashboard');
}

export function useMedicalDirectorDashboard() {
  return useJson<MedicalDirectorDashboard>('/api/medical-director/dashboard');
}

export function useTestAssignment(id: number) {
  return useJson<TestAssignment>(`/api/interpretations/${id}`);
}

export function useSlaDefinitions() {
  return useJson<SlaDefinition[]>('/api/sla/definitions');
}

export function usePracticeCalendar() {
  return useJson<PracticeCalendar>('/api/sla/calendar');
}

export function useSaveCalendar() {
  return useClinicalMutation((input: Omit<PracticeCalendar, 'timeZone'>) =>
    apiRequest<PracticeCalendar>('PUT', '/api/sla/calendar', input),
  );
}

export function useLetterhead() {
  return useJson<LetterheadInput>('/api/sla/letterhead');
}

export function useSaveLetterhead() {
  return useClinicalMutation((input: LetterheadInput) =>
    apiRequest<LetterheadInput>('PUT', '/api/sla/letterhead', input),
  );
}

export function useSlaDashboard() {
  return useJson<SlaDashboardView>('/api/sla/dashboard');
}

export function attachmentUrl(referralId: number, attachmentId: string): string {
  return `/api/referrals/${referralId}/attachments/${attachmentId}`;
}

export function interpretationReportUrl(referralId: number): string {
  return `/api/interpretations/${referralId}/report.pdf`;
}

export function reportUrl(referralId: number): string {
  return `/api/referrals/${referralId}/report.pdf`;
}

/** A mutation that refreshes every clinical query once it succeeds. */
function useClinicalMutation<V, R>(run: (variables: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => client.invalidateQueries({ queryKey: CLINICAL_KEY }),
  });
}

export function useCreatePhysician() {
  return useClinicalMutation((input: Partial<PhysicianInput>) =>
    apiRequest<PhysicianDetail>('POST', '/api/physicians', input),
  );
}

export function useUpdatePhysician(id: number) {
  return useClinicalMutation((input: Partial<PhysicianInput>) =>
    apiRequest<PhysicianDetail>('PATCH', `/api/physicians/${id}`, input),
  );
}

export function useDecidePhysician() {
  return useClinicalMutation(({ id, decision }: { id: number; decision: 'approve' | 'reject' }) =>
    apiRequest<PhysicianDetail>('POST', `/api/physicians/${id}/${decision}`),
  );
}

export function useCreateReferral() {
  return useClinicalMutation((input: Partial<CreateReferralInput>) =>
    apiRequest<ReferralDetail>('POST', '/api/referrals', input),
  );
}

export function useReferralStatus(id: number) {
  return useClinicalMutation(({ status, note }: { status: ReferralStatus; note?: string }) =>
    apiRequest<ReferralDetail>('POST', `/api/referrals/${id}/status`, { status, note }),
  );
}

export function useBulkStatus() {
  return useClinicalMutation((input: { ids: number[]; status: ReferralStatus; note?: string }) =>
    apiRequest<{ updated: number[]; refused: number[] }>('POST', '/api/referrals/bulk-status', input),
  );
}

export function useLinkBooking(id: number) {
  return useClinicalMutation((bookingId: number) =>
    apiRequest<ReferralDetail>('POST', `/api/referrals/${id}/booking`, { bookingId }),
  );
}

export function useLinkPatient(id: number) {
  return useClinicalMutation((input: { patientId: number } | { createFromSubmission: true }) =>
    apiRequest<ReferralDetail>('POST', `/api/referrals/${id}/patient`, input),
  );
}

/** Uploads one attachment as the raw body; its type is recognised by the server from its content. */
export async function uploadAttachment(referralId: number, file: File): Promise<void> {
  const response = await fetch(`/api/referrals/${referralId}/attachments`, {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'application/octet-stream', 'X-File-Name': encodeURIComponent(file.name) },
    body: file,
  });
  if (!response.ok) {
    const data = await response.json().catch(() => ({ error: response.statusText }));
    throw new ApiError(response.status, data, response.statusText);
  }
}

export function useAssignReader(referralId: number) {
  return useClinicalMutation((readerUserId: number) =>
    apiRequest<ReferralDetail>('POST', `/api/interpretations/${referralId}/assign`, { readerUserId }),
  );
}

export interface InterpretationValues {
  ahi?: number | null;
  odi?: number | null;
  lowestSpo2?: number | null;
  recordingMinutes?: number | null;
  impression?: string;
  recommendation?: string;
}

export function useSaveDraft(referralId: number) {
  return useClinicalMutation((values: InterpretationValues) =>
    apiRequest<ReferralDetail>('PUT', `/api/interpretations/${referralId}`, values),
  );
}

export function useSign(referralId: number) {
  return useClinicalMutation((values: InterpretationValues & { credential: string }) =>
    apiRequest<ReferralDetail>('POST', `/api/interpretations/${referralId}/sign`, values),
  );
}

export function useAddendum(referralId: number) {
  return useClinicalMutation((text: string) =>
    apiRequest<ReferralDetail>('POST', `/api/interpretations/${referralId}/addenda`, { text }),
  );
}

export function useSaveDefinition() {
  return useClinicalMutation(({ id, input }: { id: number | null; input: SlaDefinitionInput }) =>
    id === null
      ? apiRequest<SlaDefinition>('POST', '/api/sla/definitions', input)
      : apiRequest<SlaDefinition>('PUT', `/api/sla/definitions/${id}`, input),
  );
}

export function useDeleteDefinition() {
  return useClinicalMutation((id: number) => apiRequest('DELETE', `/api/sla/definitions/${id}`));
}

export function useLinkUserPhysician() {
  return useClinicalMutation(({ userId, physicianId }: { userId: number; physicianId: number | null }) =>
    apiRequest<{ userId: number; physicianId: number | null }>(
      'PUT',
      `/api/admin/users/${userId}/physician`,
      {
        physicianId,
      },
    ),
  );
}

/** Field messages of a 400 answer, keyed by field path. */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  if (error instanceof ApiError && error.data && typeof error.data === 'object' && 'fields' in error.data) {
    return (error.data as { fields: Record<string, string> }).fields ?? {};
  }
  return {};
}
