import { inventoryMessages, messages } from '@wellrest/core';
import { type FormEvent, useEffect, useId, useState } from 'react';
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

/**
 * Asks why a booking is cancelled; the reason is required and kept in the booking's history.
 * Used by the booking detail and the kanban board.
 */
export function CancelBookingDialog({
  open,
  patientName,
  pending,
  onConfirm,
  onClose,
}: {
  open: boolean;
  patientName: string;
  pending: boolean;
  onConfirm: (reason: string) => void;
  onClose: () => void;
}) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  // Each opening starts empty.
  useEffect(() => {
    if (open) {
      setReason('');
      setError(null);
    }
  }, [open]);

  function submit(event: FormEvent) {
    event.preventDefault();
    const text = reason.trim();
    if (!text) {
      setError(inventoryMessages.cancelReasonRequired);
      return;
    }
    onConfirm(text);
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !pending) onClose();
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{messages.cancelBooking.title}</DialogTitle>
          <DialogDescription>{messages.cancelBooking.description(patientName)}</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-reason`}>{messages.cancelBooking.reason} *</Label>
            <Textarea
              id={`${id}-reason`}
              value={reason}
              maxLength={500}
              required
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(event) => {
                setReason(event.target.value);
                if (error) setError(null);
              }}
            />
            {error && <FieldMessage id={`${id}-error`}>{error}</FieldMessage>}
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" disabled={pending} onClick={onClose}>
              {messages.cancelBooking.keep}
            </Button>
            <Button type="submit" variant="destructive" disabled={pending}>
              {pending ? messages.cancelBooking.pending : messages.cancelBooking.confirm}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
