import { inventoryMessages, KIT_STATS_MAX_DAYS } from '@wellrest/core';
import { describe, expect, it } from 'vitest';
import { checkPeriod, percent, presetPeriod } from './period';

describe('kit statistics periods', () => {
  it('ends every preset today and starts it the right number of days back', () => {
    expect(presetPeriod('last7', '2025-03-10')).toEqual({ from: '2025-03-04', to: '2025-03-10' });
    expect(presetPeriod('last30', '2025-03-10')).toEqual({ from: '2025-02-09', to: '2025-03-10' });
    expect(presetPeriod('last90', '2025-03-10')).toEqual({ from: '2024-12-11', to: '2025-03-10' });
    expect(presetPeriod('thisMonth', '2025-03-10')).toEqual({ from: '2025-03-01', to: '2025-03-10' });
    expect(presetPeriod('thisMonth', '2025-03-01')).toEqual({ from: '2025-03-01', to: '2025-03-01' });
  });

  it('checks a custom period by the rules of the API', () => {
    expect(checkPeriod({ from: '2025-03-01', to: '2025-03-10' })).toEqual({ ok: true });
    expect(checkPeriod({ from: '2025-03-10', to: '2025-03-01' })).toEqual({
      ok: false,
      fields: { to: inventoryMessages.statsPeriodOrder },
    });
    expect(checkPeriod({ from: '2024-01-01', to: '2025-12-31' })).toEqual({
      ok: false,
      fields: { to: inventoryMessages.statsPeriodTooLong(KIT_STATS_MAX_DAYS) },
    });
    const missing = checkPeriod({ from: '', to: '2025-03-01' });
    expect(missing.ok === false && Object.keys(missing.fields)).toEqual(['from']);
  });

  it("rounds core's utilisation to a whole percentage and survives a kit never in service", () => {
    expect(percent(1 / 3)).toBe(33);
    expect(percent(2 / 3)).toBe(67);
    expect(percent(null)).toBe(0);
  });
});
