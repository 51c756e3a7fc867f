import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type BookingListItem, type KitScan, type ScanInput, ScannerSettings } from '@wellrest/core';
import { ApiError, apiRequest, errorField } from '@/lib/api';

export const SCANNER_SETTINGS_KEY = ['/api/scanner-settings'] as const;

/** The signed-in user's scanner settings; the defaults until they load. */
export function useScannerSettings() {
  const query = useQuery<ScannerSettings>({ queryKey: SCANNER_SETTINGS_KEY });
  return { ...query, settings: query.data ?? ScannerSettings.parse({}) };
}

export function useSaveScannerSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: ScannerSettings) =>
      apiRequest<ScannerSettings>('PUT', SCANNER_SETTINGS_KEY[0], settings),
    onSuccess: (saved) => queryClient.setQueryData(SCANNER_SETTINGS_KEY, saved),
  });
}

/** What became of one scan: accepted or refused, the server's message, and who scanned. */
export interface ScanResult {
  ok: boolean;
  code: string;
  message: string;
  scan: KitScan | null;
  booking: BookingListItem | null;
}

/**
 * Sends one scan. A refused scan is an answer too (the server stores it and says why), so this
 * resolves either way; only a failure to reach the server comes back with `scan: null`.
 */
export async function sendScan(input: ScanInput): Promise<ScanResult> {
  try {
    const answer = await apiRequest<{ scan: KitScan; booking: BookingListItem }>('POST', '/api/scans', input);
    return {
      ok: true,
      code: input.code,
      message: answer.scan.message,
      scan: answer.scan,
      booking: answer.booking,
    };
  } catch (error) {
    if (error instanceof ApiError) {
      const data = error.data as { scan?: KitScan; fields?: Record<string, string> } | null;
      const fieldText = data?.fields ? Object.values(data.fields).join(' ') : undefined;
      return {
        ok: false,
        code: input.code,
        message: data?.scan?.message ?? errorField(data) ?? fieldText ?? error.message,
        scan: data?.scan ?? null,
        booking: null,
      };
    }
    return {
      ok: false,
      code: input.code,
      message: 'The scan could not be sent. Check the connection and scan again.',
      scan: null,
      booking: null,
    };
  }
}
