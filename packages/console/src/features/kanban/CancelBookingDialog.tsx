import { inventoryMessages, messages } from '@wellrest/core';
import { type FormEvent, useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Textarea } from '@/components/ui/input';
import { FieldMessage, Label } from '@/components/ui/label';
import type { BookingRow } from '../bookings/queries';

/** Asks why a booking is cancelled before it moves to the cancelled column (the API needs a reason). */
export function CancelBookingDialog({
  booking,
  onCancel,
  onClose,
}: {
  booking: BookingRow | null;
  onCancel: (booking: BookingRow, reason: string) => void;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (booking) {
      setReason('');
      setError(null);
    }
  }, [booking]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!booking) return;
    const trimmed = reason.trim();
    if (!trimmed) {
      setError(inventoryMessages.cancelReasonRequired);
      return;
    }
    onCancel(booking, trimmed);
  }

  const patient = booking?.patientName || messages.labels.unknownPatient;
  return (
    <Dialog open={booking !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <form onSubmit={submit} noValidate className="grid gap-4">
          <DialogHeader>
            <DialogTitle>{messages.kanban.cancelTitle}</DialogTitle>
            <DialogDescription>{messages.kanban.cancelDescription(patient)}</DialogDescription>
          </DialogHeader>
          <div className="grid gap-1.5">
            <Label htmlFor="cancel-reason">{messages.kanban.cancelReason}</Label>
            <Textarea
              id="cancel-reason"
              value={reason}
              maxLength={500}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'cancel-reason-error' : undefined}
              onChange={(event) => setReason(event.target.value)}
            />
            <FieldMessage id="cancel-reason-error">{error}</FieldMessage>
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              {messages.kanban.cancelKeep}
            </Button>
            <Button type="submit" variant="destructive">
              {messages.kanban.cancelConfirm}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
