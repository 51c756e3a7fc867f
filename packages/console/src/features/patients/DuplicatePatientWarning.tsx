import { useQuery } from '@tanstack/react-query';
import {
  API_PATHS,
  frontDeskMessages,
  MIN_PHONE_DIGITS_TO_MATCH,
  type PatientDuplicate,
  phoneDigits,
} from '@wellrest/core';
import { UserRoundSearch } from 'lucide-react';
import { Link } from 'wouter';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { useAbility } from '@/lib/ability';
import { apiRequest } from '@/lib/api';
import { useDebouncedValue } from '../search/useSearchResults';

const CHECK_DEBOUNCE_MS = 400;

/**
 * Existing patients with the email address or phone number being typed. Asked with a POST so
 * the contact details stay out of URLs; skipped until the email looks like one or the phone has
 * enough digits.
 */
export function usePatientDuplicates(email: string, phone: string, excludeId?: number | null) {
  const ability = useAbility();
  const settled = useDebouncedValue({ email: email.trim(), phone: phone.trim() }, CHECK_DEBOUNCE_MS);
  const worthAsking =
    /.+@.+\..+/.test(settled.email) || phoneDigits(settled.phone).length >= MIN_PHONE_DIGITS_TO_MATCH;
  return useQuery({
    queryKey: [`${API_PATHS.patients}/duplicates`, settled.email, settled.phone, excludeId ?? null],
    queryFn: ({ signal }) =>
      apiRequest<PatientDuplicate[]>(
        'POST',
        `${API_PATHS.patients}/duplicates`,
        { ...settled, ...(excludeId ? { excludeId } : {}) },
        { signal },
      ),
    enabled: worthAsking && ability.can('read', 'Patient'),
    // A warning, not a gate: a failed check shows nothing and is not retried.
    retry: false,
    staleTime: 30_000,
  });
}

/** Warns that the patient being entered may already exist, with a link to each match. */
export function DuplicatePatientWarning({
  email,
  phone,
  excludeId,
}: {
  email: string;
  phone: string;
  excludeId?: number | null;
}) {
  const { data } = usePatientDuplicates(email, phone, excludeId);
  if (!data || data.length === 0) return null;
  return (
    <Alert variant="warning" aria-live="polite">
      <UserRoundSearch aria-hidden />
      <AlertTitle>{frontDeskMessages.duplicatePatientTitle}</AlertTitle>
      <AlertDescription>
        <ul className="grid gap-1">
          {data.map((match) => (
            <li key={match.id} className="flex flex-wrap items-baseline gap-x-2">
              <span>{frontDeskMessages.duplicatePatient(match.name, match.matches)}</span>
              <Link
                href={`/patients#patient-${match.id}`}
                className="font-medium text-amber-950 underline underline-offset-2"
              >
                {frontDeskMessages.openExistingPatient}
              </Link>
            </li>
          ))}
        </ul>
      </AlertDescription>
    </Alert>
  );
}
