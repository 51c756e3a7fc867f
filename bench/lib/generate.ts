import type { Booking, BookingStatus, Kit, KitType, Patient, TestType } from '@wellrest/core';
import {
  fromDayNumber,
  isValidStartDate,
  KIT_TYPES,
  MAINTENANCE_DAYS,
  returnDateFor,
  TEST_END_OFFSET_DAYS,
  toDayNumber,
} from '@wellrest/core';

// The synthetic data set: patients, kits and three years of bookings, built in memory from a
// seeded generator so every run (and the core benchmark) sees the same rows the database holds.
//
// Every kit gets its own timeline. Current and future bookings (which hold their kit) follow the
// product's rules: valid start days only, and each hold [start, end + maintenance day] is clear of
// the next one, so the exclusion constraint accepts them. The history is denser than one kit can
// really serve (500 bookings per kit in three years, where back-to-back holds allow about 365),
// so past bookings — completed or cancelled, which hold nothing — keep their test nights apart
// but skip the maintenance day and the weekday rule; a cancelled booking shares its slot with
// the next one.

export interface Scale {
  patients: number;
  kits: number;
  bookings: number;
}

export const FULL_SCALE: Scale = { patients: 100_000, kits: 1_000, bookings: 500_000 };

export interface DataSet {
  today: string;
  patients: Patient[];
  kits: Kit[];
  bookings: Booking[];
}

/** Days of history before today and of bookings ahead of it: three years in all. */
export const HISTORY_DAYS = 1_005;
export const FUTURE_DAYS = 90;

/** mulberry32: small, fast and good enough to spread synthetic rows. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const FIRST_NAMES = [
  'Olivia',
  'Liam',
  'Emma',
  'Noah',
  'Amelia',
  'Oliver',
  'Sophia',
  'Elijah',
  'Isabella',
  'Mateo',
  'Mia',
  'Lucas',
  'Evelyn',
  'Levi',
  'Harper',
  'Ezra',
  'Luna',
  'Asher',
  'Camila',
  'James',
  'Gianna',
  'Leo',
  'Elizabeth',
  'Grayson',
  'Eleanor',
  'Jack',
  'Ella',
  'Hudson',
  'Abigail',
  'Ethan',
  'Sofia',
  'Aiden',
  'Avery',
  'Wyatt',
  'Scarlett',
  'Henry',
  'Emily',
  'Sebastian',
  'Aria',
  'Theo',
  'Penelope',
  'Daniel',
  'Chloe',
  'Owen',
  'Layla',
  'Julian',
  'Mila',
  'Samuel',
  'Nora',
  'Michael',
  'Hazel',
  'Benjamin',
  'Madison',
  'Joseph',
  'Ellie',
  'Isaac',
  'Lily',
  'Gabriel',
  'Nova',
  'Carter',
];

const LAST_NAMES = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Torres',
  'Nguyen',
  'Hill',
  'Flores',
  'Green',
  'Adams',
  'Nelson',
  'Baker',
  'Hall',
  'Rivera',
  'Campbell',
  'Mitchell',
  'Carter',
  'Roberts',
  'Gomez',
  'Phillips',
  'Evans',
  'Turner',
  'Diaz',
  'Parker',
  'Cruz',
  'Edwards',
  'Collins',
  'Reyes',
  'Stewart',
  'Morris',
  'Morales',
  'Murphy',
  'Cook',
  'Rogers',
  'Gutierrez',
  'Ortiz',
  'Morgan',
  'Cooper',
];

// Half the surnames come from the common list above, half from these parts (Ashford, Blackwell, ...):
// a long tail of rarer names, as a real patient list has.
const SURNAME_STARTS = [
  'Ash',
  'Black',
  'Brad',
  'Brook',
  'Cald',
  'Cran',
  'Dal',
  'East',
  'Fair',
  'Glen',
  'Hal',
  'Hart',
  'Kings',
  'Lang',
  'Mar',
  'North',
  'Oak',
  'Pem',
  'Red',
  'Rother',
  'Stan',
  'Thorn',
  'Wal',
  'Whit',
];
const SURNAME_ENDS = [
  'ford',
  'well',
  'ley',
  'wood',
  'ton',
  'field',
  'by',
  'more',
  'bridge',
  'worth',
  'stead',
  'ridge',
  'wick',
  'dale',
  'man',
  'son',
  'cott',
  'ham',
  'holm',
  'ster',
  'ing',
  'er',
  'den',
  'mont',
];

// Names follow a Zipf-like distribution, as a real patient list's do: a few very common names
// and a long tail. The lists: the common names above first, then names built from syllables
// (Brackford, Shellwell, Dorina, ...) in a fixed shuffled order; the name of rank r is drawn with
// weight 1 / (r + q) (Zipf-Mandelbrot, exponent 1). At 100,000 patients that is about 30,000
// distinct surnames (the most common about 0.6% of patients) and 12,000 first names.
const ONSETS = [
  'B',
  'Br',
  'C',
  'Ch',
  'Cr',
  'D',
  'Dr',
  'F',
  'Fl',
  'G',
  'Gr',
  'H',
  'K',
  'L',
  'M',
  'N',
  'P',
  'Pr',
  'R',
  'S',
  'Sh',
  'St',
  'T',
  'Tr',
  'V',
  'W',
  'Wh',
  'Y',
  'Z',
];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea'];
const CODAS = [
  'b',
  'ck',
  'd',
  'ff',
  'g',
  'l',
  'll',
  'm',
  'n',
  'nd',
  'r',
  'rk',
  'rn',
  's',
  't',
  'th',
  'v',
  'x',
];
const FIRST_ENDINGS = ['a', 'ie', 'o', 'an', 'en', 'ina', 'ella', 'ric', 'ton', 'ley', 'iel', 'is', 'y'];

function shuffled<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

/** `common` first, then every onset + vowel (+ coda) + ending, deduplicated, in a fixed order. */
function nameList(common: readonly string[], endings: readonly string[], codas: readonly string[]): string[] {
  const built: string[] = [];
  for (const onset of ONSETS)
    for (const vowel of VOWELS)
      for (const coda of codas) for (const end of endings) built.push(`${onset}${vowel}${coda}${end}`);
  const seen = new Set(common);
  const fresh = new Set(built.filter((name) => !seen.has(name)));
  const tail = shuffled([...fresh], seededRandom(7));
  return [...common, ...tail];
}

/** Draws ranks 0..n-1 with weight 1 / (rank + q). */
function zipf(n: number, q: number): (random: () => number) => number {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let r = 0; r < n; r++) {
    total += 1 / (r + q);
    cumulative[r] = total;
  }
  return (random) => {
    const x = random() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

let names:
  | {
      surnames: string[];
      firstNames: string[];
      surname: (r: () => number) => number;
      first: (r: () => number) => number;
    }
  | undefined;

function nameLists() {
  if (!names) {
    const common = [
      ...LAST_NAMES,
      ...SURNAME_STARTS.flatMap((start) => SURNAME_ENDS.map((end) => `${start}${end}`)),
    ];
    const surnames = nameList([...new Set(common)], SURNAME_ENDS, CODAS);
    const firstNames = nameList(FIRST_NAMES, FIRST_ENDINGS, ['', 'l', 'n', 'r', 's', 'th']);
    names = { surnames, firstNames, surname: zipf(surnames.length, 20), first: zipf(firstNames.length, 5) };
  }
  return names;
}

function surname(random: () => number): string {
  const lists = nameLists();
  return lists.surnames[lists.surname(random)] as string;
}

function firstName(random: () => number): string {
  const lists = nameLists();
  return lists.firstNames[lists.first(random)] as string;
}

const MIDDLE_INITIALS = 'ABCDEFGHJKLMNPRSTW';

/** Label prefix of each kit type, as printed on the kits ('SOM-0001'). */
export const KIT_LABEL_PREFIX: Readonly<Record<KitType, string>> = {
  Somfit: 'SOM',
  'Z-Machine': 'ZMC',
  SleepView: 'SLV',
};

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function generatePatients(count: number, random: () => number): Patient[] {
  const patients: Patient[] = [];
  for (let id = 1; id <= count; id++) {
    const first = firstName(random);
    const last = surname(random);
    const middle = random() < 0.3 ? ` ${pick(random, [...MIDDLE_INITIALS])}.` : '';
    patients.push({
      id,
      name: `${first}${middle} ${last}`,
      email: `${first}.${last}.${id}@example.test`.toLowerCase(),
      phone: `555-${String(100 + (id % 900)).padStart(3, '0')}-${String(id % 10_000).padStart(4, '0')}`,
      leadSource: random() < 0.6 ? 'Direct' : pick(random, ['Referral', 'Online', 'GHL', 'Other'] as const),
    });
  }
  return patients;
}

function generateKits(count: number, random: () => number): Kit[] {
  const perType = new Map<KitType, number>();
  const kits: Kit[] = [];
  for (let id = 1; id <= count; id++) {
    const type = KIT_TYPES[(id - 1) % KIT_TYPES.length] as KitType;
    const n = (perType.get(type) ?? 0) + 1;
    perType.set(type, n);
    const roll = random();
    kits.push({
      id,
      kitId: `${KIT_LABEL_PREFIX[type]}-${String(n).padStart(4, '0')}`,
      type,
      status: roll < 0.01 ? 'maintenance' : roll < 0.015 ? 'retired' : 'available',
      serialNumber: `SN${String(id).padStart(7, '0')}`,
      notes: null,
    });
  }
  return kits;
}

/** The first valid start day for `testType` on or after `day`. */
function nextValidStart(day: number, testType: TestType): number {
  let d = day;
  while (!isValidStartDate(fromDayNumber(d), testType)) d++;
  return d;
}

interface Draft {
  kitId: number;
  kitType: KitType;
  testType: TestType;
  status: BookingStatus;
  start: number;
}

function futureStatus(random: () => number): BookingStatus {
  const roll = random();
  if (roll < 0.78) return 'confirmed';
  if (roll < 0.95) return 'pending';
  return 'cancelled';
}

/** Bookings of one kit from two days ago to FUTURE_DAYS ahead: busy near today, sparser later. */
function kitFuture(kit: Kit, today: number, random: () => number): Draft[] {
  const drafts: Draft[] = [];
  let cursor = today - 2 - Math.floor(random() * 2);
  for (;;) {
    const testType: TestType = random() < 0.75 ? '2-day' : '3-day';
    const start = nextValidStart(cursor, testType);
    if (start > today + FUTURE_DAYS) break;
    const status: BookingStatus = start <= today ? 'picked_up' : futureStatus(random);
    drafts.push({ kitId: kit.id, kitType: kit.type, testType, status, start });
    const end = start + TEST_END_OFFSET_DAYS[testType];
    // A cancelled booking frees its slot; later slots thin out with distance from today.
    const next = status === 'cancelled' ? start : end + MAINTENANCE_DAYS + 1;
    cursor = next + Math.floor(random() * (2 + (start - today) / 12));
  }
  return drafts;
}

/** `count` past bookings of one kit packed into [today - HISTORY_DAYS, today - 4]. */
function kitHistory(kit: Kit, count: number, today: number, random: () => number): Draft[] {
  const slots: { testType: TestType; cancelled: boolean }[] = [];
  let needed = 0;
  for (let i = 0; i < count; i++) {
    const testType: TestType = random() < 0.85 ? '2-day' : '3-day';
    const cancelled = random() < 0.1;
    slots.push({ testType, cancelled });
    if (!cancelled) needed += TEST_END_OFFSET_DAYS[testType] + 1;
  }
  const first = today - HISTORY_DAYS;
  const last = today - 4;
  let slack = Math.max(0, last - first + 1 - needed);
  const meanGap = slack / Math.max(1, count);
  const drafts: Draft[] = [];
  let cursor = first;
  for (const { testType, cancelled } of slots) {
    const gap = Math.min(slack, Math.floor(random() * 2 * meanGap));
    slack -= gap;
    cursor += gap;
    const length = TEST_END_OFFSET_DAYS[testType] + 1;
    // When a kit's history does not fit, the overflow is recorded as cancelled (it holds nothing).
    const fits = cursor + length - 1 <= last;
    const start = fits ? cursor : last - length + 1;
    drafts.push({
      kitId: kit.id,
      kitType: kit.type,
      testType,
      status: cancelled || !fits ? 'cancelled' : 'completed',
      start,
    });
    if (!cancelled && fits) cursor += length;
  }
  return drafts;
}

/** Generates the whole data set; `today` is the practice's calendar date. */
export function generateDataSet(scale: Scale, today: string, seed = 20_251_122): DataSet {
  const random = seededRandom(seed);
  const todayNumber = toDayNumber(today);
  const patients = generatePatients(scale.patients, random);
  const kits = generateKits(scale.kits, random);

  const drafts: Draft[] = [];
  const base = Math.floor(scale.bookings / kits.length);
  const extra = scale.bookings - base * kits.length;
  kits.forEach((kit, index) => {
    const target = base + (index < extra ? 1 : 0);
    const future = kitFuture(kit, todayNumber, random).slice(0, target);
    drafts.push(...kitHistory(kit, target - future.length, todayNumber, random), ...future);
  });
  // Ids in date order, as a booking system that has run for three years would have them.
  drafts.sort((a, b) => a.start - b.start || a.kitId - b.kitId);

  const bookings: Booking[] = drafts.map((draft, index) => {
    const endDate = fromDayNumber(draft.start + TEST_END_OFFSET_DAYS[draft.testType]);
    return {
      id: index + 1,
      patientId: 1 + Math.floor(random() * scale.patients),
      kitId: draft.kitId,
      testType: draft.testType,
      kitType: draft.kitType,
      status: draft.status,
      startDate: fromDayNumber(draft.start),
      endDate,
      returnDate: returnDateFor(endDate),
      notes: null,
    };
  });
  return { today, patients, kits, bookings };
}

/** Booking counts by status, for the report. */
export function statusMix(bookings: readonly Booking[]): Record<string, number> {
  const mix: Record<string, number> = {};
  for (const b of bookings) mix[b.status] = (mix[b.status] ?? 0) + 1;
  return mix;
}
