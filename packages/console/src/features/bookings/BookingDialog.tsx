import type { KitType, TestType } from '@wellrest/core';
import { frontDeskMessages, messages } from '@wellrest/core';
import { CopyPlus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { ErrorState } from '@/components/QueryState';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useRegisterOpenForm } from '@/lib/formRegistry';
import { newIdempotencyKey, useSubmitOnce } from '@/lib/useSubmitOnce';
import { BookingForm, type BookingFormDefaults, type BookingSubmission } from './BookingForm';
import { practiceToday, useBookings, useKits, usePatients } from './queries';
import { type CreateBookingRequest, type DuplicateBooking, useCreateBooking } from './useCreateBooking';

export interface BookingDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Books for this patient (the existing-patient tab starts with them selected). */
  patientId?: number;
  /** A start date chosen elsewhere (e.g. on a calendar): shows the availability tip. */
  preselectedDate?: string;
  defaultKitType?: KitType;
  defaultTestType?: TestType;
  /** Told of the booking once created (e.g. to link it to the referral it was made for). */
  onBooked?: (booking: { id: number }) => void;
}

/** After a booking is created the form starts over: 2-day, no date, existing-patient tab (spec §4). */
const BLANK: BookingFormDefaults = {};

/**
 * The 'Create New Booking' dialog. Loads patients, kits and bookings while open (refetching
 * pauses while it is open, so nothing moves under the user), and creates the booking.
 */
export function BookingDialog({
  open,
  onOpenChange,
  patientId,
  preselectedDate,
  defaultKitType,
  defaultTestType,
  onBooked,
}: BookingDialogProps) {
  useRegisterOpenForm(open);
  const patients = usePatients(open);
  const kits = useKits(open);
  // Only bookings still holding a kit from today on can collide with a new one.
  const bookings = useBookings({ from: practiceToday(), enabled: open });
  // Each new form (a remount) starts from `defaults`: the caller's props, or blank after a create.
  const [formKey, setFormKey] = useState(0);
  const propsKey = [patientId, preselectedDate, defaultKitType, defaultTestType].join('|');
  const [blankFor, setBlankFor] = useState<string | null>(null);
  const afterCreate = blankFor === propsKey;

  const [duplicate, setDuplicate] = useState<{
    request: CreateBookingRequest;
    found: DuplicateBooking;
  } | null>(null);
  const create = useCreateBooking(
    (created) => {
      onBooked?.(created);
      setBlankFor(propsKey);
      setFormKey((key) => key + 1);
      setDuplicate(null);
      onOpenChange(false);
    },
    (request, found) => setDuplicate({ request, found }),
  );
  // One submission at a time, each with keys of its own: a double click sends one request, and a
  // retried request (the same keys) is answered by the server without writing twice.
  const submit = useSubmitOnce((submission: BookingSubmission) => {
    setDuplicate(null);
    return create
      .mutateAsync({ submission, keys: { patient: newIdempotencyKey(), booking: newIdempotencyKey() } })
      .catch(() => undefined);
  });
  const proceedWithDuplicate = useSubmitOnce(() => {
    if (!duplicate) return undefined;
    const { request } = duplicate;
    setDuplicate(null);
    return create
      .mutateAsync({
        ...request,
        keys: { patient: request.keys.patient, booking: newIdempotencyKey() },
        allowDuplicate: true,
      })
      .catch(() => undefined);
  });

  function close() {
    if (create.isPending) return;
    setFormKey((key) => key + 1);
    setDuplicate(null);
    onOpenChange(false);
  }

  const defaults: BookingFormDefaults = afterCreate
    ? BLANK
    : { patientId, startDate: preselectedDate, kitType: defaultKitType, testType: defaultTestType };
  const failed = [patients, kits, bookings].find((query) => query.isError);

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{messages.booking.dialogTitle}</DialogTitle>
          <DialogDescription>
            Book a home sleep test: choose the patient, the test, the kit type and a start date.
          </DialogDescription>
        </DialogHeader>
        {duplicate && (
          <Alert variant="warning">
            <CopyPlus aria-hidden />
            <AlertTitle>{frontDeskMessages.duplicateBookingTitle}</AlertTitle>
            <AlertDescription className="grid gap-3">
              <p>{duplicate.found.message}</p>
              <div className="flex flex-wrap gap-2">
                <Button size="sm" onClick={proceedWithDuplicate} disabled={create.isPending}>
                  {frontDeskMessages.duplicateBookingProceed}
                </Button>
                <Button size="sm" variant="outline" asChild>
                  <Link href={`/bookings-management?booking=${duplicate.found.existingBookingId}`}>
                    {frontDeskMessages.duplicateBookingOpen}
                  </Link>
                </Button>
              </div>
            </AlertDescription>
          </Alert>
        )}
        {failed ? (
          <ErrorState error={failed.error} onRetry={() => void failed.refetch()} />
        ) : (
          <BookingForm
            key={formKey}
            patients={patients.data ?? []}
            kits={kits.data ?? []}
            bookings={bookings.data ?? []}
            today={practiceToday()}
            defaults={defaults}
            showDateTip={Boolean(defaults.startDate)}
            loading={patients.isPending || kits.isPending || bookings.isPending}
            submitting={create.isPending}
            onSubmit={submit}
            onCancel={close}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}
