import {
  addDays,
  BOOKING_STATUSES,
  type Booking,
  type BookingStatus,
  GENDERS,
  isKitFree,
  isValidStartDate,
  KIT_TYPES,
  type KitType,
  LEAD_SOURCES,
  type Role,
  TEST_TYPES,
  type TestType,
  testDates,
} from '@wellrest/core';

// Deterministic demo data. Everything here is synthetic: invented names on reserved example
// domains, fictional 555-01xx phone numbers. Pure functions, so the plan can be tested for any day.

export const DEMO_PASSWORD = 'wellrest-demo';

export interface DemoUser {
  username: string;
  role: Role;
  displayName: string;
  /** Set for the account that shows the expired-password flow: its password is this many days old. */
  passwordAgeDays?: number;
}

export const DEMO_USERS: ReadonlyArray<DemoUser> = [
  { username: 'admin', role: 'admin', displayName: 'Demo Admin' },
  { username: 'director', role: 'medical_director', displayName: 'Demo Medical Director' },
  { username: 'scheduler', role: 'scheduler', displayName: 'Demo Scheduler' },
  { username: 'physician', role: 'physician', displayName: 'Demo Physician' },
  { username: 'staff', role: 'staff', displayName: 'Demo Staff' },
  // A year-old password: past the default 90-day expiry, so signing in shows the expired-password flow.
  { username: 'expired', role: 'staff', displayName: 'Demo Expired Password', passwordAgeDays: 365 },
];

export const demoEmail = (username: string) => `${username}@wellrest.test`;

const KIT_PREFIXES: Record<KitType, string> = { Somfit: 'SOM', 'Z-Machine': 'ZM', SleepView: 'SV' };
export const DEMO_KITS_PER_TYPE = 5;
/** How long the demo kits have been in service: well before the demo bookings' window. */
export const DEMO_KITS_IN_SERVICE_DAYS = 400;

export interface DemoKit {
  kit_id: string;
  type: KitType;
  serial_number: string;
}

export function demoKits(): DemoKit[] {
  return KIT_TYPES.flatMap((type, typeIndex) =>
    Array.from({ length: DEMO_KITS_PER_TYPE }, (_, i) => {
      const number = String(i + 1).padStart(3, '0');
      return {
        kit_id: `${KIT_PREFIXES[type]}-${number}`,
        type,
        serial_number: `${KIT_PREFIXES[type]}-SN-${typeIndex + 1}${number}`,
      };
    }),
  );
}

const FIRST_NAMES = [
  'Avery',
  'Blake',
  'Casey',
  'Devon',
  'Emerson',
  'Finley',
  'Gray',
  'Harper',
  'Indigo',
  'Jordan',
  'Kendall',
  'Logan',
  'Morgan',
  'Noel',
  'Oakley',
  'Parker',
  'Quinn',
  'Riley',
  'Sage',
  'Taylor',
];
const LAST_NAMES = [
  'Sampleton',
  'Demoford',
  'Testwell',
  'Mockley',
  'Placeholder',
  'Fakington',
  'Exampleby',
  'Dummer',
];
const INSURERS = ['Demo Health Plan', 'Sample Mutual', 'Example Care'];
const STATES = ['NY', 'NJ', 'CT', 'PA'];
export const DEMO_PATIENT_COUNT = 40;

export interface DemoPatient {
  name: string;
  email: string;
  phone: string;
  date_of_birth: string;
  gender: string;
  address: string;
  city: string;
  state: string;
  zip_code: string;
  emergency_contact: string;
  emergency_phone: string;
  insurance_provider: string;
  insurance_policy_number: string;
  referring_physician: string;
  medical_history: string;
  lead_source: string;
  ghl_id: string | null;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

export function demoPatients(): DemoPatient[] {
  return Array.from({ length: DEMO_PATIENT_COUNT }, (_, i) => {
    // 20 first names x 8 last names: i -> (i mod 20, i mod 8) is unique for i < 40.
    const first = FIRST_NAMES[i % FIRST_NAMES.length] as string;
    const last = LAST_NAMES[i % LAST_NAMES.length] as string;
    const leadSource = LEAD_SOURCES[i % LEAD_SOURCES.length] as string;
    return {
      name: `${first} ${last}`,
      email: `${first}.${last}@example.test`.toLowerCase(),
      phone: `(555) 555-01${pad(i, 2)}`,
      date_of_birth: `${1950 + ((i * 7) % 50)}-${pad((i % 12) + 1, 2)}-${pad((i % 28) + 1, 2)}`,
      gender: GENDERS[i % GENDERS.length] as string,
      address: `${100 + i} Demo Street`,
      city: 'Sampleville',
      state: STATES[i % STATES.length] as string,
      zip_code: pad(10_000 + i * 37, 5),
      emergency_contact: `Demo Contact ${i + 1}`,
      emergency_phone: `(555) 555-01${pad(99 - i, 2)}`,
      insurance_provider: INSURERS[i % INSURERS.length] as string,
      insurance_policy_number: `DEMO-${pad(i + 1, 5)}`,
      referring_physician: 'Dr. Demo Referrer',
      medical_history: 'Synthetic demo record.',
      lead_source: leadSource,
      ghl_id: leadSource === 'GHL' ? `demo-ghl-${pad(i + 1, 3)}` : null,
    };
  });
}

/** A small seeded PRNG (mulberry32), so the same day always yields the same plan. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface PlanKit {
  id: number;
  type: KitType;
}

/** A planned booking (negative id until inserted), or an existing one the plan must not collide with. */
export type PlannedBooking = Booking;

/** The window of demo bookings around today: three weeks back, three weeks ahead. */
export const DEMO_WINDOW_DAYS = 21;

/** First date on or after `from` that can start a test of any type. */
function nextStartDay(from: string): string {
  let day = from;
  while (!TEST_TYPES.some((t) => isValidStartDate(day, t))) day = addDays(day, 1);
  return day;
}

/** First date on or after `from` that some valid test returns on. */
function nextReturnDay(from: string): string {
  for (let day = from; ; day = addDays(day, 1)) {
    for (let back = 1; back <= 7; back++) {
      const start = addDays(day, -back);
      if (TEST_TYPES.some((t) => isValidStartDate(start, t) && testDates(start, t).returnDate === day))
        return day;
    }
  }
}

function statusFor(
  dates: { startDate: string; returnDate: string },
  today: string,
  roll: number,
): BookingStatus {
  if (dates.returnDate < today) return roll < 0.12 ? 'cancelled' : 'completed';
  if (dates.startDate < today) return 'picked_up';
  if (dates.startDate === today) return 'confirmed';
  if (roll < 0.1) return 'cancelled';
  const soon = dates.startDate <= addDays(today, 7);
  return roll < (soon ? 0.3 : 0.55) ? 'pending' : 'confirmed';
}

/**
 * Demo bookings for the six weeks around `today`: past ones completed or cancelled, current
 * ones picked up, coming ones confirmed or pending, a few cancelled, several starting on the
 * next start day (today when it is Monday to Thursday) and several returning on the next return
 * day. Kits are chosen so that no two holding bookings ever hold one kit on the same date.
 */
export function planDemoBookings(input: {
  today: string;
  kits: readonly PlanKit[];
  patientIds: readonly number[];
  existing?: readonly PlannedBooking[];
}): PlannedBooking[] {
  const { today, kits, patientIds } = input;
  const rand = random(20250101);
  const focusStart = nextStartDay(today);
  const focusReturn = nextReturnDay(today);
  // Everything that uses a kit in the plan (completed ones too, so history looks real) counts as holding.
  const occupied: PlannedBooking[] = (input.existing ?? []).map((b) => ({ ...b }));
  const planned: PlannedBooking[] = [];
  let nextId = -1;
  let patientCursor = 0;

  const add = (startDate: string, testType: TestType, preferredType: KitType, roll: number) => {
    const dates = testDates(startDate, testType);
    const status = statusFor(dates, today, roll);
    const typeOrder = [preferredType, ...KIT_TYPES.filter((t) => t !== preferredType)];
    for (const kitType of typeOrder) {
      const kit = kits.find((k) => k.type === kitType && isKitFree(k.id, occupied, startDate, testType));
      if (!kit) continue;
      const booking: PlannedBooking = {
        id: nextId--,
        patientId: patientIds[patientCursor++ % patientIds.length] as number,
        kitId: kit.id,
        testType,
        kitType,
        status,
        ...dates,
        notes: null,
      };
      planned.push(booking);
      if (status !== 'cancelled') occupied.push({ ...booking, status: 'confirmed' });
      return;
    }
  };

  for (let offset = -DEMO_WINDOW_DAYS; offset <= DEMO_WINDOW_DAYS; offset++) {
    const day = addDays(today, offset);
    const count = day === focusStart ? 4 : 2 + Math.floor(rand() * 2);
    for (let i = 0; i < count; i++) {
      const preferred: TestType = rand() < 0.6 ? '2-day' : '3-day';
      const testType = [preferred, ...TEST_TYPES.filter((t) => t !== preferred)].find((t) =>
        isValidStartDate(day, t),
      );
      const kitType = KIT_TYPES[(offset + DEMO_WINDOW_DAYS + i) % KIT_TYPES.length] as KitType;
      const roll = rand();
      if (testType) add(day, testType, kitType, roll);
    }
  }

  // Kits coming back on the next return day, for the dashboard's drop-offs.
  const returning = planned.filter((b) => b.returnDate === focusReturn && b.status !== 'cancelled').length;
  for (let back = 1, extra = Math.max(0, 3 - returning); back <= 7 && extra > 0; back++) {
    const start = addDays(focusReturn, -back);
    for (const testType of TEST_TYPES) {
      if (
        extra > 0 &&
        isValidStartDate(start, testType) &&
        testDates(start, testType).returnDate === focusReturn
      ) {
        add(start, testType, KIT_TYPES[extra % KIT_TYPES.length] as KitType, 0.5);
        extra--;
      }
    }
  }

  ensureEveryStatus(planned, today);
  return planned;
}

/** Makes sure the demo shows every status, flipping a future booking where chance left one out. */
function ensureEveryStatus(planned: PlannedBooking[], today: string): void {
  const future = planned.filter((b) => b.startDate > addDays(today, 7) && b.status !== 'cancelled');
  for (const status of ['pending', 'confirmed', 'cancelled'] as const) {
    if (!planned.some((b) => b.status === status)) {
      const target = future.pop();
      if (target) target.status = status;
    }
  }
  const missing = BOOKING_STATUSES.filter((status) => !planned.some((b) => b.status === status));
  if (missing.length > 0) throw new Error(`demo plan lacks bookings with status ${missing.join(', ')}`);
}
