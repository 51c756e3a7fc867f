import { z } from 'zod';
import { isIsoDate } from '../dates/calendar.js';
import { messages } from '../messages.js';

/** A calendar date 'YYYY-MM-DD' that exists (no Feb 30). */
/**
 * The calendar dates the product accepts anywhere: a birth date in 1900 through a booking in 2199.
 * Dates outside are refused by every schema (a request for year 9999 would otherwise run date
 * arithmetic past what a Date can hold).
 */
export const DATE_MIN = '1900-01-01';
export const DATE_MAX = '2199-12-31';

export const IsoDate = z
  .string({ error: messages.dates.invalidDate })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: messages.dates.invalidDate })
  .refine(isIsoDate, { error: messages.dates.invalidDate })
  .refine((value) => value >= DATE_MIN && value <= DATE_MAX, { error: messages.dates.outOfRange });
export type IsoDate = z.infer<typeof IsoDate>;

/** A database id: a positive integer. */
export const Id = z.number().int().positive();

/** Optional free text: trimmed, bounded, null or absent when not given. */
export function optionalText(max: number) {
  return z
    .string()
    .trim()
    .max(max, { error: messages.patient.tooLong(max) })
    .nullish();
}

/** Required text: present, non-blank after trimming, with the given message when it is not. */
export function requiredText(message: string, max: number) {
  return z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .max(max, { error: messages.patient.tooLong(max) });
}
