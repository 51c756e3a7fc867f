import { describe, expect, it } from 'vitest';
import {
  BookingListQuery,
  ChangeBookingStatusInput,
  DashboardStatsResponse,
  operationMessages,
  PAGE_SIZE_DEFAULT,
  PatientListQuery,
  pageOf,
} from './operations.js';
import { Patient } from './schemas/patient.js';

describe('list queries', () => {
  it('read paging from a query string, with defaults', () => {
    expect(PatientListQuery.parse({})).toEqual({ pageSize: PAGE_SIZE_DEFAULT, sort: 'name' });
    expect(PatientListQuery.parse({ page: '2', pageSize: '10', q: ' ada ', sort: '-createdAt' })).toEqual({
      page: 2,
      pageSize: 10,
      q: 'ada',
      sort: '-createdAt',
    });
    expect(PatientListQuery.parse({ q: '  ' }).q).toBeUndefined();
    expect(PatientListQuery.safeParse({ page: '0' }).success).toBe(false);
    expect(PatientListQuery.safeParse({ pageSize: '201' }).success).toBe(false);
    expect(PatientListQuery.safeParse({ sort: 'email' }).success).toBe(false);
  });

  it('take the booking filters', () => {
    expect(
      BookingListQuery.parse({
        status: 'confirmed',
        kitType: 'Somfit',
        from: '2025-11-24',
        to: '2025-11-30',
        patientId: '7',
      }),
    ).toMatchObject({ status: 'confirmed', kitType: 'Somfit', patientId: 7, sort: 'startDate' });
    expect(BookingListQuery.safeParse({ status: 'lost' }).success).toBe(false);
    expect(BookingListQuery.safeParse({ from: '2025-02-30' }).success).toBe(false);
    expect(BookingListQuery.safeParse({ patientId: 'x' }).success).toBe(false);
  });
});

describe('ChangeBookingStatusInput', () => {
  it('takes a status and an optional reason', () => {
    expect(ChangeBookingStatusInput.parse({ status: 'cancelled', reason: ' moved ' })).toEqual({
      status: 'cancelled',
      reason: 'moved',
    });
    expect(ChangeBookingStatusInput.parse({ status: 'cancelled', reason: '' })).toEqual({
      status: 'cancelled',
    });
    expect(ChangeBookingStatusInput.safeParse({ status: 'gone' }).success).toBe(false);
  });
});

describe('responses', () => {
  it('pageOf wraps items with their total', () => {
    const page = {
      items: [{ id: 1, name: 'A', email: 'a@b.co', phone: '1' }],
      total: 3,
      page: 1,
      pageSize: 1,
    };
    expect(pageOf(Patient).parse(page).total).toBe(3);
  });

  it('DashboardStatsResponse holds every card', () => {
    const stats = {
      totalPatients: 1,
      activeBookings: 2,
      pendingBookings: 0,
      todaysPickups: 1,
      todaysReturns: 0,
      totalKits: 15,
      availableKits: 14,
      kitsInUse: 1,
      upcomingWeek: 3,
    };
    expect(DashboardStatsResponse.parse(stats)).toEqual(stats);
  });

  it('names both statuses of a refused change', () => {
    expect(operationMessages.invalidStatusChange('picked_up', 'pending')).toBe(
      'A picked up booking cannot change to pending.',
    );
  });
});
