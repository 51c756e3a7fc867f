// What the search's matching answers, and the rules it shares between record kinds.

/** The booking or referral number a query names (`123` or `#123`), or 0. */
export function typedNumber(q: string): number {
  return /^#?\d{1,9}$/.test(q) ? Number(q.replace('#', '')) : 0;
}

/** Patients and physicians whose bookings and referrals a name search considers. */
export const RELATED_CANDIDATES = 50;

export interface PatientMatch {
  id: number;
  name: string;
  email: string;
  score: number;
}

export interface PhysicianMatch {
  id: number;
  name: string;
  npi: string;
  practice: string | null;
  score: number;
}

export interface KitMatch {
  id: number;
  kit_id: string;
  score: number;
}

/** What a referral search starts from: the number typed, and the patients and physicians found. */
export interface ReferralCandidates {
  referralId: number;
  patientIds: number[];
  physicianIds: number[];
}
