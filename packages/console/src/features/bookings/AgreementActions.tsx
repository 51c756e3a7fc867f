import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type AgreementInitiation, frontDeskMessages, messages, ResignAgreementInput } from '@wellrest/core';
import { FileSignature, RotateCcw } from 'lucide-react';
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
import { toast } from '@/components/ui/use-toast';
import { useAbility } from '@/lib/ability';
import { apiRequest, errorMessage } from '@/lib/api';
import { useInitiateAgreement } from '../dashboard/useDashboardActions';
import { BOOKINGS_KEY, DAILY_AVAILABILITY_KEY } from './queries';

/**
 * The agreement actions of a confirmed booking in its detail sheet: send the form while it is
 * not signed; once signed, only an explicit re-sign with a reason (the old signature is kept,
 * superseded, in the history and the audit trail).
 */
export function AgreementActions({
  booking,
}: {
  booking: { id: number; status: string; agreementSigned: boolean };
}) {
  const ability = useAbility();
  const initiate = useInitiateAgreement();
  const [resigning, setResigning] = useState(false);
  if (booking.status !== 'confirmed') return null;
  if (!booking.agreementSigned) {
    if (!ability.can('create', 'Agreement')) return null;
    return (
      <Button
        size="sm"
        variant="outline"
        disabled={initiate.isPending}
        onClick={() => initiate.mutate(booking.id)}
      >
        <FileSignature aria-hidden />
        {frontDeskMessages.sendAgreement}
      </Button>
    );
  }
  if (!ability.can('update', 'Agreement')) return null;
  return (
    <>
      <Button size="sm" variant="outline" onClick={() => setResigning(true)}>
        <RotateCcw aria-hidden />
        {frontDeskMessages.resignAgreement}
      </Button>
      <ResignDialog bookingId={booking.id} open={resigning} onClose={() => setResigning(false)} />
    </>
  );
}

function ResignDialog({
  bookingId,
  open,
  onClose,
}: {
  bookingId: number;
  open: boolean;
  onClose: () => void;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const resign = useMutation({
    mutationFn: (input: ResignAgreementInput) =>
      apiRequest<AgreementInitiation>('POST', `/api/bookings/${bookingId}/agreement/resign`, input),
    onSuccess: ({ formUrl, patientName }) => {
      window.open(formUrl, '_blank', 'noopener');
      toast({ variant: 'success', ...messages.agreement.initiated(patientName) });
      void queryClient.invalidateQueries({ queryKey: BOOKINGS_KEY });
      void queryClient.invalidateQueries({ queryKey: DAILY_AVAILABILITY_KEY });
      setReason('');
      onClose();
    },
    onError: (failure) => setError(errorMessage(failure, messages.agreement.failed.description)),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = ResignAgreementInput.safeParse({ reason });
    if (!parsed.success) {
      setError(frontDeskMessages.resignReasonRequired);
      return;
    }
    setError(null);
    if (!resign.isPending) resign.mutate(parsed.data);
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !next && !resign.isPending && onClose()}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>{frontDeskMessages.resignAgreement}</DialogTitle>
          <DialogDescription>
            The signed agreement is kept but replaced; the patient receives a new form to sign.
          </DialogDescription>
        </DialogHeader>
        <form id={`${id}-form`} className="grid gap-2" onSubmit={submit} noValidate>
          <Label htmlFor={`${id}-reason`}>{frontDeskMessages.resignReasonLabel}</Label>
          <Textarea
            id={`${id}-reason`}
            value={reason}
            rows={3}
            aria-invalid={Boolean(error)}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(event) => setReason(event.target.value)}
          />
          <FieldMessage id={`${id}-error`}>{error}</FieldMessage>
        </form>
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={resign.isPending}>
            {messages.common.cancel}
          </Button>
          <Button type="submit" form={`${id}-form`} disabled={resign.isPending}>
            {frontDeskMessages.resignConfirm}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
