import { inventoryMessages, messages } from '@wellrest/core';
import { type FormEvent, useId, useState } from 'react';
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

/** Asks why a booking is cancelled; the reason is required and kept in the booking's history. */
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
        if (!next && !pending) {
          setReason('');
          setError(null);
          onClose();
        }
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Cancel booking</DialogTitle>
          <DialogDescription>
            The booking for {patientName} is cancelled and its kit is free again. This cannot be undone.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-reason`}>Reason for cancelling *</Label>
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
              {messages.common.cancel}
            </Button>
            <Button type="submit" variant="destructive" disabled={pending}>
              {pending ? 'Cancelling...' : 'Cancel booking'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
