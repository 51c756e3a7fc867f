import {
  type EditKitInput,
  KIT_TYPES,
  type KitType,
  MANUAL_KIT_STATUSES,
  messages,
  NewKitInput,
} from '@wellrest/core';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input, NativeSelect, Textarea } from '@/components/ui/input';
import { FieldMessage, Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { ApiError, errorMessage } from '@/lib/api';
import { KIT_STATUS_LABELS } from './KitStatusBadge';
import { type InventoryKit, useCreateKit, useUpdateKit } from './queries';

type Fields = { kitId: string; type: KitType; serialNumber: string; notes: string; status: string };
type FieldErrors = Partial<Record<keyof Fields, string>>;

const EMPTY: Fields = { kitId: '', type: 'Somfit', serialNumber: '', notes: '', status: 'available' };

function fieldsOf(kit: InventoryKit | null): Fields {
  if (!kit) return EMPTY;
  return {
    kitId: kit.kitId,
    type: kit.type,
    serialNumber: kit.serialNumber ?? '',
    notes: kit.notes ?? '',
    status: kit.status,
  };
}

/** The server's field-by-field answer to bad input (400), when it sent one. */
function serverFieldErrors(error: unknown): FieldErrors {
  if (error instanceof ApiError && error.data && typeof error.data === 'object' && 'fields' in error.data) {
    return (error.data as { fields: FieldErrors }).fields ?? {};
  }
  return {};
}

/** Adds a kit, or edits one (`kit` given): label, type, serial number, notes and a hand-set status. */
export function KitDialog({
  open,
  kit,
  onOpenChange,
}: {
  open: boolean;
  kit: InventoryKit | null;
  onOpenChange: (open: boolean) => void;
}) {
  const id = useId();
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateKit();
  const update = useUpdateKit();
  const pending = create.isPending || update.isPending;
  // Only available, maintenance and lost are set by hand; in use and cleaning follow the scans.
  const statusEditable = kit !== null && (MANUAL_KIT_STATUSES as readonly string[]).includes(kit.status);

  useEffect(() => {
    if (open) {
      setFields(fieldsOf(kit));
      setErrors({});
      setProblem(null);
    }
  }, [open, kit]);

  const set = (name: keyof Fields) => (value: string) =>
    setFields((current) => ({ ...current, [name]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    const parsed = NewKitInput.safeParse({
      kitId: fields.kitId,
      type: fields.type,
      serialNumber: fields.serialNumber,
      notes: fields.notes,
    });
    if (!parsed.success) {
      const next: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0]) as keyof Fields;
        next[key] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    try {
      if (kit) {
        const input: EditKitInput = { ...parsed.data };
        if (statusEditable && fields.status !== kit.status) {
          input.status = fields.status as EditKitInput['status'];
        }
        await update.mutateAsync({ id: kit.id, input });
        toast({ variant: 'success', title: 'Kit updated', description: `${parsed.data.kitId} was saved.` });
      } else {
        await create.mutateAsync(parsed.data);
        toast({ variant: 'success', title: 'Kit added', description: `${parsed.data.kitId} is available.` });
      }
      onOpenChange(false);
    } catch (error) {
      const fromServer = serverFieldErrors(error);
      if (Object.keys(fromServer).length > 0) setErrors(fromServer);
      else setProblem(errorMessage(error, 'The kit could not be saved.'));
    }
  }

  const describedBy = (name: keyof Fields) => (errors[name] ? `${id}-${name}-error` : undefined);

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{kit ? `Edit kit ${kit.kitId}` : 'Add kit'}</DialogTitle>
          <DialogDescription>
            {kit
              ? 'Change the kit’s details. In use and cleaning follow check-out and check-in scans.'
              : 'A new kit starts out available for bookings.'}
          </DialogDescription>
        </DialogHeader>
        <form id={`${id}-form`} className="grid gap-4" onSubmit={submit} noValidate>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-label`}>Kit label *</Label>
            <Input
              id={`${id}-label`}
              value={fields.kitId}
              onChange={(e) => set('kitId')(e.target.value)}
              aria-invalid={Boolean(errors.kitId)}
              aria-describedby={describedBy('kitId')}
              autoComplete="off"
              placeholder="e.g. SOM-021"
            />
            <FieldMessage id={`${id}-kitId-error`}>{errors.kitId}</FieldMessage>
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="grid gap-1.5">
              <Label htmlFor={`${id}-type`}>Kit type *</Label>
              <NativeSelect
                id={`${id}-type`}
                value={fields.type}
                onChange={(e) => set('type')(e.target.value)}
                aria-invalid={Boolean(errors.type)}
                aria-describedby={describedBy('type')}
              >
                {KIT_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {type}
                  </option>
                ))}
              </NativeSelect>
              <FieldMessage id={`${id}-type-error`}>{errors.type}</FieldMessage>
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={`${id}-serial`}>Serial number</Label>
              <Input
                id={`${id}-serial`}
                value={fields.serialNumber}
                onChange={(e) => set('serialNumber')(e.target.value)}
                aria-invalid={Boolean(errors.serialNumber)}
                aria-describedby={describedBy('serialNumber')}
                autoComplete="off"
              />
              <FieldMessage id={`${id}-serialNumber-error`}>{errors.serialNumber}</FieldMessage>
            </div>
          </div>
          {kit && (
            <div className="grid gap-1.5">
              <Label htmlFor={`${id}-status`}>Status</Label>
              <NativeSelect
                id={`${id}-status`}
                value={fields.status}
                onChange={(e) => set('status')(e.target.value)}
                disabled={!statusEditable}
                aria-describedby={`${id}-status-hint`}
              >
                {(statusEditable ? MANUAL_KIT_STATUSES : [kit.status]).map((status) => (
                  <option key={status} value={status}>
                    {KIT_STATUS_LABELS[status]}
                  </option>
                ))}
              </NativeSelect>
              <FieldMessage id={`${id}-status-hint`} tone="hint">
                {statusEditable
                  ? 'Set Lost for a kit that has gone missing, Maintenance to take it out of service.'
                  : 'This status is set by scanning the kit out and in.'}
              </FieldMessage>
            </div>
          )}
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-notes`}>Notes</Label>
            <Textarea
              id={`${id}-notes`}
              value={fields.notes}
              onChange={(e) => set('notes')(e.target.value)}
              aria-invalid={Boolean(errors.notes)}
              aria-describedby={describedBy('notes')}
            />
            <FieldMessage id={`${id}-notes-error`}>{errors.notes}</FieldMessage>
          </div>
          {problem && (
            <Alert variant="destructive">
              <AlertDescription>{problem}</AlertDescription>
            </Alert>
          )}
        </form>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
            {messages.common.cancel}
          </Button>
          <Button type="submit" form={`${id}-form`} disabled={pending}>
            {pending ? 'Saving...' : kit ? 'Save changes' : 'Add kit'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
