import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type BookingEvent,
  type BookingStatus,
  defineAbilityFor,
  formatDate,
  formatDateRange,
  formatReturnDate,
  messages,
  searchResultUrl,
  shellMessages,
} from '@wellrest/core';
import { CalendarClock, History, PackageCheck, Printer } from 'lucide-react';
import { type ReactNode, useMemo, useState } from 'react';
import { Link } from 'wouter';
import { EmptyState, ErrorState } from '@/components/QueryState';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet';
import { LinesSkeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { useCurrentUser } from '@/features/auth/useCurrentUser';
import { apiRequest, errorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/datetime';
import { AgreementActions } from './AgreementActions';
import { allowedActions, type BookingAction, STATUS_ACTIONS } from './bookingActions';
import { CancelBookingDialog } from './CancelBookingDialog';
import {
  type AgreementState,
  BOOKING_DATA_KEYS,
  type BookingDetail,
  useBookingDetail,
  useBookingDropoffs,
} from './queries';
import { StatusBadge, statusLabel } from './StatusBadge';
import { type DurationChange, TestDurationDialog } from './TestDurationDialog';

const AGREEMENT_LABELS: Record<AgreementState, { label: string; tone: 'green' | 'amber' | 'grey' }> = {
  signed: { label: 'Signed', tone: 'green' },
  sent: { label: 'Sent, not signed yet', tone: 'amber' },
  none: { label: 'Not sent', tone: 'grey' },
};

export function AgreementBadge({ status }: { status: AgreementState | undefined }) {
  const view = AGREEMENT_LABELS[status ?? 'none'];
  return (
    <Badge tone={view.tone} data-agreement={status ?? 'none'}>
      {view.label}
    </Badge>
  );
}

function when(iso: string): string {
  return Number.isNaN(Date.parse(iso)) ? messages.dates.invalidDate : formatDateTime(iso);
}

/** One line of the history in words: what changed. */
export function describeEvent(event: BookingEvent): string {
  switch (event.action) {
    case 'created':
      return `Booked as ${statusLabel(event.toStatus ?? 'pending').toLowerCase()}`;
    case 'status_changed':
      return `Status changed from ${statusLabel(event.fromStatus ?? '')} to ${statusLabel(event.toStatus ?? '')}${
        event.details.via === 'scan' ? ' (scan)' : ''
      }`;
    case 'extended':
      return event.details.kitSwapped
        ? 'Extended to a 3-day test, on another kit'
        : 'Extended to a 3-day test';
    case 'reduced':
      return 'Reduced to a 2-day test';
    case 'agreement_initiated':
      return 'Agreement form sent';
    case 'agreement_superseded':
      return 'Signed agreement replaced';
    default:
      return String(event.action).replaceAll('_', ' ');
  }
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[8rem_1fr] gap-2 py-1.5 text-sm">
      <dt className="text-slate-600">{label}</dt>
      <dd className="min-w-0 font-medium text-slate-900">{children}</dd>
    </div>
  );
}

function Section({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="border-t border-slate-200 pt-4">
      <h3 className="mb-2 flex items-center gap-2 text-sm font-semibold text-slate-900">
        <span className="text-slate-500" aria-hidden>
          {icon}
        </span>
        {title}
      </h3>
      {children}
    </section>
  );
}

function Dropoffs({ bookingId, canConfirm }: { bookingId: number; canConfirm: boolean }) {
  const dropoffs = useBookingDropoffs(bookingId);
  const queryClient = useQueryClient();
  const confirm = useMutation({
    mutationFn: (id: number) => apiRequest('POST', `/api/dropoffs/${id}/confirm`),
    onSuccess: () => {
      toast({ variant: 'success', title: 'Drop-off confirmed' });
      for (const queryKey of BOOKING_DATA_KEYS) void queryClient.invalidateQueries({ queryKey });
    },
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: messages.common.error,
        description: errorMessage(error, messages.common.unexpectedError),
      }),
  });
  if (dropoffs.isPending) return <LinesSkeleton lines={2} />;
  if (dropoffs.isError) return <ErrorState error={dropoffs.error} onRetry={() => void dropoffs.refetch()} />;
  if (dropoffs.data.length === 0) return <p className="text-sm text-slate-600">No drop-off reported.</p>;
  return (
    <ul className="grid gap-2">
      {dropoffs.data.map((dropoff) => (
        <li key={dropoff.id} className="rounded-md border border-slate-200 p-3 text-sm">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span className="font-medium text-slate-900">
              {formatDate(dropoff.dropoffDate)} · {dropoff.location}
            </span>
            {dropoff.confirmedAt ? (
              <Badge tone="green">Confirmed</Badge>
            ) : canConfirm ? (
              <Button
                size="sm"
                variant="outline"
                disabled={confirm.isPending}
                onClick={() => confirm.mutate(dropoff.id)}
              >
                Confirm drop-off
              </Button>
            ) : (
              <Badge tone="amber">Not confirmed</Badge>
            )}
          </div>
          {dropoff.problems && <p className="mt-1 text-slate-700">Problems: {dropoff.problems}</p>}
          {dropoff.notes && <p className="mt-1 text-slate-600">{dropoff.notes}</p>}
        </li>
      ))}
    </ul>
  );
}

function DetailBody({
  booking,
  actions,
  busy,
  onAction,
}: {
  booking: BookingDetail;
  actions: BookingAction[];
  busy: boolean;
  onAction: (action: BookingAction) => void;
}) {
  const labels: Record<BookingAction, string> = {
    confirm: 'Confirm',
    pickUp: 'Mark picked up',
    complete: 'Mark returned',
    cancel: messages.cancelBooking.confirm,
    extend: messages.extension.confirmButton,
    reduce: messages.reduction.confirmButton,
  };
  return (
    <div className="grid gap-4">
      <dl>
        <Field label="Patient">
          <Link
            href={searchResultUrl('patient', booking.patientId)}
            className="text-accent-700 hover:underline"
          >
            {booking.patientName || messages.labels.unknownPatient}
          </Link>
        </Field>
        <Field label="Test">
          {booking.testType} · {booking.kitType}
        </Field>
        <Field label="Kit">{booking.kitLabel || messages.labels.unknownKit}</Field>
        <Field label="Test period">{formatDateRange(booking.startDate, booking.endDate)}</Field>
        <Field label="Pickup">{formatDate(booking.startDate)}</Field>
        <Field label="Return">{formatReturnDate(booking.returnDate)}</Field>
        <Field label="Agreement">
          <AgreementBadge status={booking.agreement?.status ?? booking.agreementStatus} />
          {booking.agreement?.signedAt && (
            <span className="mt-1 block text-xs font-normal text-slate-600">
              Signed {when(booking.agreement.signedAt)}
            </span>
          )}
          <div className="mt-2">
            <AgreementActions
              booking={{
                id: booking.id,
                status: booking.status,
                agreementSigned: (booking.agreement?.status ?? booking.agreementStatus) === 'signed',
              }}
            />
          </div>
        </Field>
        {booking.notes && <Field label="Notes">{booking.notes}</Field>}
      </dl>

      {actions.length > 0 && (
        <fieldset className="flex flex-wrap gap-2">
          <legend className="sr-only">Booking actions</legend>
          {actions.map((action) => (
            <Button
              key={action}
              size="sm"
              variant={
                action === 'cancel'
                  ? 'outline'
                  : action === 'extend' || action === 'reduce'
                    ? 'secondary'
                    : 'default'
              }
              className={action === 'cancel' ? 'border-red-300 text-red-700 hover:bg-red-50' : undefined}
              disabled={busy}
              onClick={() => onAction(action)}
            >
              {labels[action]}
            </Button>
          ))}
        </fieldset>
      )}

      <Section icon={<PackageCheck className="size-4" />} title="Drop-off reports">
        <Dropoffs bookingId={booking.id} canConfirm={actions.includes('complete')} />
      </Section>

      <Section icon={<History className="size-4" />} title="History">
        {booking.events.length === 0 ? (
          <p className="text-sm text-slate-600">No changes recorded.</p>
        ) : (
          <ol className="grid gap-3 border-l border-slate-200 pl-4">
            {booking.events.map((event) => (
              <li key={event.id} className="relative text-sm">
                <span
                  className="absolute top-1.5 -left-[1.3rem] size-2 rounded-full bg-accent-600"
                  aria-hidden
                />
                <p className="font-medium text-slate-900">{describeEvent(event)}</p>
                {event.reason && <p className="text-slate-700">Reason: {event.reason}</p>}
                <p className="text-xs text-slate-600">
                  {event.actorUsername ?? 'System'} ·{' '}
                  <time dateTime={event.occurredAt}>{when(event.occurredAt)}</time>
                </p>
              </li>
            ))}
          </ol>
        )}
      </Section>
    </div>
  );
}

/**
 * A booking's detail in a side sheet: who, which kit, when, the agreement, drop-off reports,
 * the history, and the actions the transition rules and the user's role allow.
 */
export function BookingDetailSheet({
  bookingId,
  onClose,
}: {
  bookingId: number | null;
  onClose: () => void;
}) {
  const detail = useBookingDetail(bookingId);
  const { user } = useCurrentUser();
  const ability = useMemo(() => defineAbilityFor(user), [user]);
  const queryClient = useQueryClient();
  const [cancelling, setCancelling] = useState(false);
  const [duration, setDuration] = useState<{ change: DurationChange; open: boolean } | null>(null);

  const change = useMutation({
    mutationFn: ({ status, reason }: { status: BookingStatus; reason?: string }) =>
      apiRequest('POST', `/api/bookings/${bookingId}/status`, { status, reason }),
    onSuccess: (_data, { status }) => {
      toast({ variant: 'success', title: 'Booking updated', description: `Status: ${statusLabel(status)}` });
      setCancelling(false);
      for (const queryKey of BOOKING_DATA_KEYS) void queryClient.invalidateQueries({ queryKey });
    },
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: messages.common.error,
        description: errorMessage(error, messages.common.unexpectedError),
      }),
  });

  const booking = detail.data;
  const actions = booking ? allowedActions(booking, ability) : [];

  function act(action: BookingAction) {
    if (action === 'cancel') setCancelling(true);
    else if (action === 'extend' || action === 'reduce') setDuration({ change: action, open: true });
    else {
      const to = STATUS_ACTIONS.find((entry) => entry.action === action)?.to;
      if (to) change.mutate({ status: to });
    }
  }

  return (
    <>
      <Sheet open={bookingId !== null} onOpenChange={(open) => !open && onClose()}>
        <SheetContent className="right-0 left-auto w-full max-w-full overflow-y-auto p-6 sm:w-[30rem] sm:max-w-[30rem]">
          <div className="mb-4 flex flex-wrap items-center gap-3 pr-8">
            <SheetTitle className="text-lg font-semibold text-slate-900">Booking #{bookingId}</SheetTitle>
            {booking && <StatusBadge status={booking.status} />}
            {booking && (
              <Button variant="outline" size="sm" className="ml-auto" onClick={() => window.print()}>
                <Printer aria-hidden />
                {shellMessages.print}
              </Button>
            )}
          </div>
          <SheetDescription className="sr-only">
            The booking's patient, kit, dates, agreement, drop-off reports and history.
          </SheetDescription>
          {detail.isPending ? (
            <LinesSkeleton lines={8} />
          ) : detail.isError ? (
            <ErrorState error={detail.error} onRetry={() => void detail.refetch()} />
          ) : booking ? (
            <DetailBody booking={booking} actions={actions} busy={change.isPending} onAction={act} />
          ) : (
            <EmptyState icon={<CalendarClock className="size-6" aria-hidden />} title="Booking not found" />
          )}
        </SheetContent>
      </Sheet>
      <CancelBookingDialog
        key={bookingId ?? 0}
        open={cancelling}
        patientName={booking?.patientName || messages.labels.unknownPatient}
        pending={change.isPending}
        onConfirm={(reason) => change.mutate({ status: 'cancelled', reason })}
        onClose={() => setCancelling(false)}
      />
      <TestDurationDialog
        change={duration?.change ?? 'extend'}
        booking={duration?.open && booking ? booking : null}
        onClose={() => setDuration((current) => current && { ...current, open: false })}
      />
    </>
  );
}
