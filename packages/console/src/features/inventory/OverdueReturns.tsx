import { formatDate, messages, searchResultUrl } from '@wellrest/core';
import { TriangleAlert } from 'lucide-react';
import { Link } from 'wouter';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import type { OverdueReturn } from './queries';

/** Bookings past their return date whose kit has not been checked in: shown in red. */
export function OverdueReturns({ returns }: { returns: OverdueReturn[] }) {
  if (returns.length === 0) return null;
  return (
    <Alert variant="destructive" aria-labelledby="overdue-returns-title">
      <TriangleAlert aria-hidden />
      <AlertTitle id="overdue-returns-title">
        {returns.length === 1 ? '1 overdue return' : `${returns.length} overdue returns`}
      </AlertTitle>
      <AlertDescription>
        <ul className="mt-1 grid gap-1" aria-label="Overdue returns">
          {returns.map((r) => (
            <li key={r.bookingId} data-overdue-booking={r.bookingId} className="flex flex-wrap gap-x-2">
              <span className="font-mono font-semibold">{r.kitLabel ?? messages.labels.unknownKit}</span>
              <span>·</span>
              <Link href={searchResultUrl('patient', r.patientId)} className="underline">
                {r.patientName || messages.labels.unknownPatient}
              </Link>
              <span>
                · due {formatDate(r.returnDate)} ({r.daysOverdue} {r.daysOverdue === 1 ? 'day' : 'days'} late)
              </span>
            </li>
          ))}
        </ul>
      </AlertDescription>
    </Alert>
  );
}
