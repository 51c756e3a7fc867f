import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  FileAnswer,
  FormLinkCreated,
  FormSubmissionDetail,
  FormSubmissionSummary,
  FormSubmitted,
  FormTemplate,
  FormTemplateSaveInput,
  FormTemplateSummary,
} from '@wellrest/core';
import { ApiError, apiRequest, errorField, getQueryFn, QueryError } from '@/lib/api';

// The e-forms screens' data. Every key starts with FORMS_KEY so one invalidation refreshes them all.

export const FORMS_KEY = ['/api/forms'] as const;
export const TEMPLATES_PATH = '/api/forms/templates';

const fetchJson = getQueryFn<unknown>({ on401: 'throw' });

export function useTemplates() {
  return useQuery({
    queryKey: [...FORMS_KEY, 'templates'],
    queryFn: async (context) =>
      (await fetchJson({ ...context, queryKey: [TEMPLATES_PATH] })) as FormTemplateSummary[],
  });
}

export function useTemplate(id: number | null) {
  return useQuery({
    queryKey: [...FORMS_KEY, 'template', id],
    queryFn: async (context) =>
      (await fetchJson({ ...context, queryKey: [`${TEMPLATES_PATH}/${id}`] })) as FormTemplate,
    enabled: id !== null,
  });
}

export function usePatientSubmissions(patientId: number) {
  return useQuery({
    queryKey: [...FORMS_KEY, 'submissions', patientId],
    queryFn: async (context) =>
      (await fetchJson({
        ...context,
        queryKey: [`/api/forms/submissions?patientId=${patientId}`],
      })) as FormSubmissionSummary[],
    retry: (count, error) => !(error instanceof QueryError && error.status === 403) && count < 2,
  });
}

export function useSubmission(id: number | null) {
  return useQuery({
    queryKey: [...FORMS_KEY, 'submission', id],
    queryFn: async (context) =>
      (await fetchJson({ ...context, queryKey: [`/api/forms/submissions/${id}`] })) as FormSubmissionDetail,
    enabled: id !== null,
  });
}

export function submissionPdfUrl(id: number): string {
  return `/api/forms/submissions/${id}/pdf`;
}

/** Invalidates every forms query after a change. */
function useInvalidateForms() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: FORMS_KEY });
}

export function useTemplateAction() {
  const invalidate = useInvalidateForms();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: 'publish' | 'duplicate' | 'archive' }) =>
      apiRequest<FormTemplate>('POST', `${TEMPLATES_PATH}/${id}/${action}`),
    onSuccess: invalidate,
  });
}

export function useCreateTemplate() {
  const invalidate = useInvalidateForms();
  return useMutation({
    mutationFn: (input: FormTemplateSaveInput) => apiRequest<FormTemplate>('POST', TEMPLATES_PATH, input),
    onSuccess: invalidate,
  });
}

export function useSaveTemplate() {
  const invalidate = useInvalidateForms();
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: FormTemplateSaveInput }) =>
      apiRequest<FormTemplate>('PUT', `${TEMPLATES_PATH}/${id}`, input),
    onSuccess: invalidate,
  });
}

export function useSubmitForm(templateId: number) {
  const invalidate = useInvalidateForms();
  return useMutation({
    mutationFn: (input: { patientId: number; answers: Record<string, unknown> }) =>
      apiRequest<FormSubmitted>('POST', `${TEMPLATES_PATH}/${templateId}/submissions`, input),
    onSuccess: invalidate,
  });
}

export function useCreateLink(templateId: number) {
  return useMutation({
    mutationFn: (patientId: number) =>
      apiRequest<FormLinkCreated>('POST', `${TEMPLATES_PATH}/${templateId}/links`, { patientId }),
  });
}

/** The field messages of a 400 answer, keyed by field id. */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  if (error instanceof ApiError && error.data && typeof error.data === 'object' && 'fields' in error.data) {
    const fields = (error.data as { fields: unknown }).fields;
    if (fields && typeof fields === 'object') return fields as Record<string, string>;
  }
  return {};
}

/** Sends a file as the raw request body; the server checks its type by content. */
export async function uploadFile(url: string, file: File): Promise<FileAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'application/octet-stream', 'X-File-Name': encodeURIComponent(file.name) },
    body: file,
  });
  const data: unknown = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data ?? { error: errorField(data) ?? '' });
  return data as FileAnswer;
}
