import { isDeepStrictEqual } from 'node:util';
import {
  addDays,
  availableKitsOfType,
  dailyAvailability,
  naiveAvailableKitsOfType,
  naiveDailyAvailability,
} from '@wellrest/core';
import type { DataSet } from './generate.js';

// The availability engine against the deliberately naive reference, on the bench data set.
// The naive daily availability costs days × kits × bookings, minutes at full scale, so it runs on
// every Nth booking (a slice that keeps the spread of dates) and its time is multiplied by N:
// its cost is linear in the number of bookings. The engine is also run on the same slice, and
// the two answers must be identical.

export const AVAILABILITY_DAYS = 60;
/** Budget of naive inner-loop checks (days × kits × bookings) for one naive daily-availability run. */
const NAIVE_CHECK_BUDGET = 6e8;

export interface CoreResult {
  days: number;
  bookings: number;
  kits: number;
  daily: {
    fastMs: number;
    naiveSliceMs: number;
    /** The naive run used every `sliceEvery`-th booking; 1 means the whole data set. */
    sliceEvery: number;
    sliceBookings: number;
    naiveMs: number;
    extrapolated: boolean;
    speedup: number;
    sameAnswerOnSlice: boolean;
  };
  kitsOfType: {
    fastMs: number;
    naiveMs: number;
    speedup: number;
    sameAnswer: boolean;
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Median wall time of `runs` calls, after one warm-up call; returns the last answer too. */
function time<T>(runs: number, work: () => T): { ms: number; answer: T } {
  let answer = work();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    answer = work();
    samples.push(performance.now() - started);
  }
  return { ms: median(samples), answer };
}

const round = (value: number, digits = 2) => Number(value.toFixed(digits));

export function runCoreBench(data: DataSet): CoreResult {
  const { kits, bookings, patients, today } = data;
  const range = { from: today, days: AVAILABILITY_DAYS, today };

  const fastDaily = time(7, () => dailyAvailability({ kits, bookings, patients }, range));

  const checks = AVAILABILITY_DAYS * kits.length * bookings.length;
  const sliceEvery = Math.max(1, Math.ceil(checks / NAIVE_CHECK_BUDGET));
  const slice = sliceEvery === 1 ? bookings : bookings.filter((_, i) => i % sliceEvery === 0);
  const sliceData = { kits, bookings: slice, patients };
  const naiveSlice = time(1, () => naiveDailyAvailability(sliceData, range));
  const fastSlice = dailyAvailability(sliceData, range);
  const naiveMs = naiveSlice.ms * (bookings.length / slice.length);

  // A start date a week ahead, when some kits are busy and some free.
  const startDate = addDays(today, 7);
  const kitType = 'Somfit';
  const fastKits = time(21, () => availableKitsOfType(kitType, kits, bookings, startDate, '2-day'));
  const naiveKits = time(1, () => naiveAvailableKitsOfType(kitType, kits, bookings, startDate, '2-day'));

  return {
    days: AVAILABILITY_DAYS,
    bookings: bookings.length,
    kits: kits.length,
    daily: {
      fastMs: round(fastDaily.ms),
      naiveSliceMs: round(naiveSlice.ms),
      sliceEvery,
      sliceBookings: slice.length,
      naiveMs: round(naiveMs),
      extrapolated: sliceEvery > 1,
      speedup: round(naiveMs / fastDaily.ms, 1),
      sameAnswerOnSlice: isDeepStrictEqual(fastSlice, naiveSlice.answer),
    },
    kitsOfType: {
      fastMs: round(fastKits.ms, 3),
      naiveMs: round(naiveKits.ms),
      speedup: round(naiveKits.ms / fastKits.ms, 1),
      sameAnswer: isDeepStrictEqual(fastKits.answer, naiveKits.answer),
    },
  };
}
