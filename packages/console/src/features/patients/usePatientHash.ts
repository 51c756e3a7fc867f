import { useLocationProperty } from 'wouter/use-browser-location';

const PATIENT_ANCHOR = /^#patient-(\d+)$/;

/** The patient id named by a `#patient-{id}` hash, or null. */
export function patientIdFromHash(hash: string): number | null {
  const match = PATIENT_ANCHOR.exec(hash);
  return match ? Number(match[1]) : null;
}

/** The patient the URL hash points at; follows navigation, history and hash changes. */
export function usePatientHash(): number | null {
  return patientIdFromHash(useLocationProperty(() => window.location.hash));
}
