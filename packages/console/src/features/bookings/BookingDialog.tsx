import type { KitType, TestType } from '@wellrest/core';
import { messages } from '@wellrest/core';
import { useState } from 'react';
import { ErrorState } from '@/components/QueryState';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useRegisterOpenForm } from '@/lib/formRegistry';
import { BookingForm, type BookingFormDefaults } from './BookingForm';
import { practiceToday, useBookings, useKits, usePatients } from './queries';
import { useCreateBooking } from './useCreateBooking';

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

  const create = useCreateBooking((created) => {
    onBooked?.(created);
    setBlankFor(propsKey);
    setFormKey((key) => key + 1);
    onOpenChange(false);
  });

  function close() {
    if (create.isPending) return;
    setFormKey((key) => key + 1);
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
            onSubmit={(submission) => create.mutate(submission)}
            onCancel={close}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}
