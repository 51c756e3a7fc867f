import { type ClassValue, clsx } from 'clsx';
import { twMerge } from 'tailwind-merge';

/** Joins class names and lets later Tailwind utilities override earlier ones. */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}

/** First letter of a name, upper-cased, for avatars. */
export function initialOf(name: string): string {
  return name.trim().charAt(0).toUpperCase();
}

/** A date and time in the practice's zone (see datetime.ts), or an em dash when missing or invalid. */
export { formatDateTime } from './datetime';
