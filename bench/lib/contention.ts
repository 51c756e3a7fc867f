import {
  addDays,
  type Booking,
  isKitInService,
  isValidStartDate,
  type KitType,
  returnDateFor,
  testEndDate,
} from '@wellrest/core';
import type { DataSet } from './generate.js';

// Contention: many clients race for the last free kits of one type on one date. The fixture is
// a date far beyond the data set's bookings on which every in-service kit of one type but
// CAPACITY is already held; then REQUESTS bookings of that type and date are sent at once.
// Exactly CAPACITY may succeed, and no two kit-holding bookings may overlap on one kit.

export const CONTENTION_KIT_TYPE: KitType = 'Z-Machine';
export const CONTENTION_CAPACITY = 20;
export const CONTENTION_REQUESTS = 200;

export interface ContentionFixture {
  kitType: KitType;
  startDate: string;
  capacity: number;
  /** Bookings that hold every other in-service kit of the type on that date. */
  blockers: Booking[];
}

export interface ContentionResult {
  kitType: KitType;
  startDate: string;
  capacity: number;
  requests: number;
  created: number;
  conflicts: number;
  other: Record<string, number>;
  /** Filled in after the run by the SQL self-join over all bookings. */
  overlappingHolds?: number;
  skipped?: string;
}

export function contentionFixture(data: DataSet): ContentionFixture {
  let startDate = addDays(data.today, 400);
  while (!isValidStartDate(startDate, '2-day') || new Date(`${startDate}T00:00:00Z`).getUTCDay() !== 3)
    startDate = addDays(startDate, 1);
  const kits = data.kits.filter((k) => k.type === CONTENTION_KIT_TYPE && isKitInService(k));
  const capacity = Math.min(CONTENTION_CAPACITY, kits.length);
  const endDate = testEndDate(startDate, '2-day');
  let id = data.bookings.length;
  const blockers: Booking[] = kits.slice(capacity).map((kit, index) => ({
    id: ++id,
    patientId: 1 + (index % data.patients.length),
    kitId: kit.id,
    testType: '2-day',
    kitType: CONTENTION_KIT_TYPE,
    status: 'confirmed',
    startDate,
    endDate,
    returnDate: returnDateFor(endDate),
    notes: null,
  }));
  return { kitType: CONTENTION_KIT_TYPE, startDate, capacity, blockers };
}

export async function runContention(
  url: string,
  cookie: string,
  fixture: ContentionFixture,
  patients: number,
): Promise<ContentionResult> {
  const result: ContentionResult = {
    kitType: fixture.kitType,
    startDate: fixture.startDate,
    capacity: fixture.capacity,
    requests: CONTENTION_REQUESTS,
    created: 0,
    conflicts: 0,
    other: {},
  };
  const send = (i: number) =>
    fetch(`${url}/api/bookings`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({
        patientId: 1 + ((i * 7919) % patients),
        testType: '2-day',
        kitType: fixture.kitType,
        startDate: fixture.startDate,
      }),
    }).then(async (response) => {
      await response.arrayBuffer();
      return response.status;
    });
  const statuses = await Promise.all(Array.from({ length: CONTENTION_REQUESTS }, (_, i) => send(i)));
  for (const status of statuses) {
    if (status >= 200 && status < 300) result.created++;
    else if (status === 409) result.conflicts++;
    else result.other[status] = (result.other[status] ?? 0) + 1;
  }
  if (result.created === 0 && result.other[404] === CONTENTION_REQUESTS)
    result.skipped = 'endpoint missing (POST /api/bookings answered 404)';
  return result;
}
