// What the search's matching answers, and the rules it shares between record kinds.

/** The booking or referral number a query names (`123` or `#123`), or 0. */
export function typedNumber(q: string): number {
  return /^#?\d{1,9}$/.test(q) ? Number(q.replace('#', '')) : 0;
}

/** Patients and physicians whose bookings and referrals a name search considers. */
export const RELATED_CANDIDATES = 50;
