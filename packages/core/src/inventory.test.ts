import { describe, expect, it } from 'vitest';
import {
  cleaningDueDate,
  EditKitInput,
  inventoryMessages,
  isCleaningOverdue,
  isKitReadyFor,
  isMaintenanceDue,
  KIT_STATS_MAX_DAYS,
  KitStatsQuery,
  MaintenanceScheduleInput,
  maintenanceDueDate,
  NewKitInput,
  ScanInput,
  ScannerSettings,
  stripScannerFraming,
} from './inventory.js';

describe('the cleaning gate', () => {
  it('plans a cleaning for the maintenance day, or the day of a late return', () => {
    expect(cleaningDueDate('2025-03-06', '2025-03-06')).toBe('2025-03-07');
    expect(cleaningDueDate('2025-03-06', '2025-03-07')).toBe('2025-03-07');
    expect(cleaningDueDate('2025-03-06', '2025-03-10')).toBe('2025-03-10');
  });

  it('calls a cleaning overdue once its due day has passed', () => {
    expect(isCleaningOverdue('2025-03-07', '2025-03-07')).toBe(false);
    expect(isCleaningOverdue('2025-03-07', '2025-03-08')).toBe(true);
    expect(isCleaningOverdue(null, '2025-03-08')).toBe(false);
  });

  it('never gives a kit waiting for cleaning to a test starting today', () => {
    const kit = { status: 'cleaning', cleaningDueOn: '2025-03-07' };
    expect(isKitReadyFor(kit, '2025-03-07', '2025-03-07')).toBe(false);
    // After its due day it can be planned for; on the due day itself it is still being cleaned.
    expect(isKitReadyFor(kit, '2025-03-08', '2025-03-07')).toBe(true);
    expect(
      isKitReadyFor({ status: 'cleaning', cleaningDueOn: '2025-03-09' }, '2025-03-09', '2025-03-07'),
    ).toBe(false);
  });

  it('keeps an overdue kit out of every booking until its cleaning is logged', () => {
    const kit = { status: 'cleaning', cleaningDueOn: '2025-03-07' };
    expect(isKitReadyFor(kit, '2025-03-12', '2025-03-08')).toBe(false);
    expect(isKitReadyFor({ status: 'cleaning', cleaningDueOn: null }, '2025-03-08', '2025-03-08')).toBe(
      false,
    );
  });

  it('leaves other statuses to the availability engine', () => {
    for (const status of ['available', 'in_use', 'maintenance', undefined]) {
      expect(isKitReadyFor({ status }, '2025-03-07', '2025-03-07')).toBe(true);
    }
  });
});

describe('scheduled maintenance', () => {
  it('is due every N days after it was last done', () => {
    expect(maintenanceDueDate('2025-01-01', 90)).toBe('2025-04-01');
    expect(isMaintenanceDue('2025-01-01', 90, '2025-03-31')).toBe(false);
    expect(isMaintenanceDue('2025-01-01', 90, '2025-04-01')).toBe(true);
  });

  it('needs a kit type and a positive whole number of days', () => {
    expect(MaintenanceScheduleInput.safeParse({ kitType: 'Somfit', everyDays: 30 }).success).toBe(true);
    const bad = MaintenanceScheduleInput.safeParse({ kitType: 'Toaster', everyDays: 0 });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.path[0]).sort()).toEqual(['everyDays', 'kitType']);
  });
});

describe('kit input', () => {
  it('needs a label and a known type for a new kit', () => {
    expect(NewKitInput.parse({ kitId: ' SOM-010 ', type: 'Somfit' })).toEqual({
      kitId: 'SOM-010',
      type: 'Somfit',
    });
    const bad = NewKitInput.safeParse({ kitId: '  ', type: 'Toaster' });
    expect(bad.error?.issues.find((i) => i.path[0] === 'kitId')?.message).toBe(
      inventoryMessages.kitLabelRequired,
    );
  });

  it('lets staff set only the statuses that are not driven by scans or retiring', () => {
    expect(EditKitInput.safeParse({ status: 'maintenance' }).success).toBe(true);
    for (const status of ['in_use', 'cleaning', 'retired']) {
      const result = EditKitInput.safeParse({ status });
      expect(result.error?.issues[0]?.message).toBe(inventoryMessages.statusSetByScans);
    }
  });
});

describe('scanning', () => {
  it('takes a code and a direction', () => {
    expect(ScanInput.parse({ code: ' SOM-001\n', mode: 'checkin' })).toEqual({
      code: 'SOM-001',
      mode: 'checkin',
    });
    expect(ScanInput.safeParse({ code: '', mode: 'sideways' }).error?.issues).toHaveLength(2);
  });

  it('removes the prefix and suffix a scanner adds', () => {
    expect(stripScannerFraming('~SOM-001#\r', { prefix: '~', suffix: '#' })).toBe('SOM-001');
    expect(stripScannerFraming('SOM-001', { prefix: '~', suffix: '' })).toBe('SOM-001');
    expect(ScannerSettings.parse({})).toEqual({ prefix: '', suffix: '', terminator: 'Enter', sound: true });
  });
});

describe('kit statistics period', () => {
  it('accepts a period in order and not too long', () => {
    expect(KitStatsQuery.safeParse({ from: '2025-01-01', to: '2025-01-31' }).success).toBe(true);
    expect(KitStatsQuery.safeParse({ from: '2025-02-01', to: '2025-01-31' }).error?.issues[0]?.message).toBe(
      inventoryMessages.statsPeriodOrder,
    );
    expect(KitStatsQuery.safeParse({ from: '2024-01-01', to: '2025-12-31' }).error?.issues[0]?.message).toBe(
      inventoryMessages.statsPeriodTooLong(KIT_STATS_MAX_DAYS),
    );
  });
});
