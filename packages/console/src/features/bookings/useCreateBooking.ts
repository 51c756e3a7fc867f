import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API_PATHS, DEFAULT_BOOKING_STATUS, messages, testDates } from '@wellrest/core';
import { useRef } from 'react';
import { toast } from '@/components/ui/use-toast';
import { ApiError, apiRequest, errorMessage } from '@/lib/api';
import type { BookingSubmission, NewPatientFields } from './BookingForm';
import { BOOKING_DATA_KEYS } from './queries';

/** The new patient's fields as POST /api/patients takes them: blank optional fields left out. */
export function newPatientPayload(fields: NewPatientFields): Record<string, string> {
  const payload: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) {
    const text = value.trim();
    if (text !== '') payload[key] = text;
  }
  return payload;
}

/** One submission of the dialog, with the idempotency keys of its two creates. */
export interface CreateBookingRequest {
  submission: BookingSubmission;
  keys: { patient: string; booking: string };
  /** The user confirmed a second active booking for the same patient, kit type and date. */
  allowDuplicate?: boolean;
}

/** The server refused a second active booking of the same patient, kit type and start date. */
export interface DuplicateBooking {
  message: string;
  existingBookingId: number;
}

/** The duplicate-booking refusal (409, reason 'duplicate') a failed create carries, if any. */
export function duplicateBookingOf(error: unknown): DuplicateBooking | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const data = error.data as { reason?: unknown; existingBookingId?: unknown; error?: unknown } | null;
  if (data?.reason !== 'duplicate' || typeof data.existingBookingId !== 'number') return null;
  return { message: String(data.error ?? ''), existingBookingId: data.existingBookingId };
}

/**
 * Creates the booking of a submitted dialog: first the patient when the new-patient tab was
 * used, then a confirmed booking with the test's end and return dates. On success it toasts,
 * refetches the booking data and calls `onCreated`; on failure it toasts the server's message.
 */
export function useCreateBooking(
  onCreated: (created: { id: number }) => void,
  onDuplicate: (request: CreateBookingRequest, duplicate: DuplicateBooking) => void = () => {},
) {
  const queryClient = useQueryClient();
  // A patient created by an attempt whose booking then failed is reused by the next attempt,
  // so trying again never creates the same patient twice.
  const createdPatient = useRef<{ key: string; id: number } | null>(null);

  return useMutation({
    mutationFn: async ({ submission, keys, allowDuplicate }: CreateBookingRequest) => {
      let patientId = submission.patientId;
      if (submission.tab === 'new') {
        const payload = newPatientPayload(submission.newPatient);
        const key = JSON.stringify(payload);
        if (createdPatient.current?.key !== key) {
          const created = await apiRequest<{ id: number }>('POST', API_PATHS.patients, payload, {
            idempotencyKey: keys.patient,
          });
          createdPatient.current = { key, id: created.id };
        }
        patientId = createdPatient.current.id;
      }
      return apiRequest<{ id: number }>(
        'POST',
        API_PATHS.bookings,
        {
          patientId,
          testType: submission.testType,
          kitType: submission.kitType,
          ...testDates(submission.startDate, submission.testType),
          status: DEFAULT_BOOKING_STATUS,
          notes: submission.notes.trim(),
          ...(allowDuplicate ? { allowDuplicate: true } : {}),
        },
        { idempotencyKey: keys.booking },
      );
    },
    onSuccess: (created, { submission }) => {
      createdPatient.current = null;
      toast({
        variant: 'success',
        title: messages.booking.createdTitle,
        description:
          submission.tab === 'new' ? messages.booking.createdWithPatient : messages.booking.created,
      });
      for (const queryKey of BOOKING_DATA_KEYS) void queryClient.invalidateQueries({ queryKey });
      onCreated(created);
    },
    onError: (error, request) => {
      const duplicate = duplicateBookingOf(error);
      if (duplicate) {
        onDuplicate(request, duplicate);
        return;
      }
      toast({
        variant: 'destructive',
        title: messages.booking.createFailed.title,
        description: errorMessage(error, messages.booking.createFailed.description),
      });
    },
  });
}
