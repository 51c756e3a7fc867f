import { addDays, KitStatsQuery } from '@wellrest/core';

/** The period choices of the kit statistics page. */
export const PERIOD_PRESETS = ['last7', 'last30', 'last90', 'thisMonth', 'custom'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

export const PERIOD_LABELS: Readonly<Record<PeriodPreset, string>> = {
  last7: 'Last 7 days',
  last30: 'Last 30 days',
  last90: 'Last 90 days',
  thisMonth: 'This month',
  custom: 'Custom',
};

export interface Period {
  from: string;
  to: string;
}

/** The dates of a preset, ending today (in the practice's time zone). Custom keeps what was typed. */
export function presetPeriod(preset: Exclude<PeriodPreset, 'custom'>, today: string): Period {
  switch (preset) {
    case 'last7':
      return { from: addDays(today, -6), to: today };
    case 'last30':
      return { from: addDays(today, -29), to: today };
    case 'last90':
      return { from: addDays(today, -89), to: today };
    case 'thisMonth':
      return { from: `${today.slice(0, 7)}-01`, to: today };
  }
}

/** A custom period checked by the same rules as the API: field messages when it is not valid. */
export function checkPeriod(period: Period): { ok: true } | { ok: false; fields: Record<string, string> } {
  const parsed = KitStatsQuery.safeParse(period);
  if (parsed.success) return { ok: true };
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0] ?? 'to');
    fields[key] ??= issue.message;
  }
  return { ok: false, fields };
}

/**
 * Core's utilisation (held kit-days ÷ in-service kit-days, computed by the server with
 * kitUtilisation) as a whole percentage; 0 for a kit never in service in the period.
 */
export function percent(utilisation: number | null | undefined): number {
  return utilisation == null ? 0 : Math.round(utilisation * 100);
}
