import { useQuery } from '@tanstack/react-query';
import type { KitType } from '@wellrest/core';
import type { Period } from './period';
import type { KitStats } from './types';

export const KIT_STATS_PATH = '/api/kit-stats';

/** Utilisation of the kits over a period, optionally of one kit type. */
export function useKitStats(period: Period | null, kitType: KitType | '') {
  const params = new URLSearchParams();
  if (period) {
    params.set('from', period.from);
    params.set('to', period.to);
  }
  if (kitType) params.set('kitType', kitType);
  return useQuery<KitStats>({
    // The default query function fetches the first element of the key.
    queryKey: [`${KIT_STATS_PATH}?${params}`],
    enabled: period !== null,
    placeholderData: (previous) => previous,
  });
}
