import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  AGREEMENT_REFRESH_DELAY_MS,
  type AgreementInitiation,
  API_PATHS,
  errorMessageFrom,
  frontDeskMessages,
  type GhlSyncResult,
  messages,
} from '@wellrest/core';
import { useEffect, useRef } from 'react';
import { toast } from '@/components/ui/use-toast';
import { ApiError, apiRequest, failureText } from '@/lib/api';
import {
  BOOKINGS_KEY,
  DAILY_AVAILABILITY_KEY,
  DASHBOARD_STATS_KEY,
  KITS_KEY,
  PATIENTS_KEY,
} from '../bookings/queries';
import { GHL_REPORT_KEY } from '../ghl/queries';

/** Refresh reloads these four sets together (spec §7). */
const REFRESH_KEYS = [BOOKINGS_KEY, PATIENTS_KEY, KITS_KEY, DAILY_AVAILABILITY_KEY] as const;

/** The dashboard's Refresh: reloads bookings, patients, kits and availability, then says how it went. */
export function useRefreshBookingData() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      Promise.all(REFRESH_KEYS.map((queryKey) => queryClient.fetchQuery({ queryKey, staleTime: 0 }))),
    retry: false,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: DASHBOARD_STATS_KEY });
      toast({ variant: 'success', ...messages.refresh.refreshed });
    },
    onError: () => toast({ variant: 'destructive', ...messages.refresh.failed }),
  });
}

/** Sync GHL: imports and pushes leads; the server's message is the toast. */
export function useGhlSync() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<GhlSyncResult>('POST', API_PATHS.ghlSync),
    onSuccess: (result) => {
      toast({ variant: 'success', ...messages.ghl.synced(result?.message ?? '') });
      void queryClient.invalidateQueries({ queryKey: PATIENTS_KEY });
      void queryClient.invalidateQueries({ queryKey: DASHBOARD_STATS_KEY });
      void queryClient.invalidateQueries({ queryKey: GHL_REPORT_KEY });
    },
    // The failure's wording comes with the sync's rules and their validation library, which the
    // dashboard needs for nothing else: it loads when a sync fails. Should that fail too (the
    // connection is gone), the spec's words alone.
    onError: (error) =>
      import('../ghl/syncFailure').then(
        ({ showSyncFailure }) => showSyncFailure(error),
        () => toast({ variant: 'destructive', ...messages.ghl.failed }),
      ),
  });
}

/**
 * Sign agreement: asks the server for the booking's agreement form, opens it in a new tab and,
 * after AGREEMENT_REFRESH_DELAY_MS, reloads bookings and daily availability.
 */
export function useInitiateAgreement() {
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  return useMutation({
    mutationFn: (bookingId: number) =>
      apiRequest<AgreementInitiation>('POST', API_PATHS.initiateAgreement(bookingId)),
    onSuccess: ({ formUrl, patientName }) => {
      window.open(formUrl, '_blank', 'noopener');
      toast({ variant: 'success', ...messages.agreement.initiated(patientName) });
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        void queryClient.invalidateQueries({ queryKey: BOOKINGS_KEY });
        void queryClient.invalidateQueries({ queryKey: DAILY_AVAILABILITY_KEY });
      }, AGREEMENT_REFRESH_DELAY_MS);
    },
    onError: (error) => {
      // Signed meanwhile (another tab, another desk): say so and show the signed state.
      if (
        error instanceof ApiError &&
        error.status === 409 &&
        (error.data as { reason?: unknown })?.reason === 'signed'
      ) {
        toast({
          variant: 'success',
          title: frontDeskMessages.agreementSigned,
          description: frontDeskMessages.agreementAlreadySigned,
        });
        void queryClient.invalidateQueries({ queryKey: BOOKINGS_KEY });
        void queryClient.invalidateQueries({ queryKey: DAILY_AVAILABILITY_KEY });
        return;
      }
      toast({
        variant: 'destructive',
        title: messages.agreement.failed.title,
        description: errorMessageFrom(failureText(error), messages.agreement.failed.description),
      });
    },
  });
}
