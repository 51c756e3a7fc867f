import { messages } from '@wellrest/core';
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
import { Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useLogCleaning, useLogMaintenance } from './queries';

export type Upkeep = { kind: 'cleaning' | 'maintenance'; kitId: number; kitLabel: string };

const TEXT = {
  cleaning: {
    title: (label: string) => `Log cleaning of ${label}`,
    description: 'Once its cleaning is logged the kit is available for bookings again.',
    confirm: 'Log cleaning',
    done: (label: string) => `${label} is clean and available.`,
  },
  maintenance: {
    title: (label: string) => `Log maintenance of ${label}`,
    description: 'Records the maintenance done today. A kit in maintenance goes back into service.',
    confirm: 'Log maintenance',
    done: (label: string) => `Maintenance of ${label} was logged.`,
  },
} as const;

/** Logs a kit's cleaning or maintenance, with optional notes. */
export function UpkeepDialog({ upkeep, onClose }: { upkeep: Upkeep | null; onClose: () => void }) {
  const id = useId();
  const [notes, setNotes] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const cleaning = useLogCleaning();
  const maintenance = useLogMaintenance();
  const pending = cleaning.isPending || maintenance.isPending;
  const text = TEXT[upkeep?.kind ?? 'cleaning'];

  useEffect(() => {
    if (upkeep) {
      setNotes('');
      setProblem(null);
    }
  }, [upkeep]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!upkeep) return;
    const mutation = upkeep.kind === 'cleaning' ? cleaning : maintenance;
    try {
      await mutation.mutateAsync({ id: upkeep.kitId, input: { notes } });
      toast({ variant: 'success', title: text.confirm, description: text.done(upkeep.kitLabel) });
      onClose();
    } catch (error) {
      setProblem(errorMessage(error, messages.common.unexpectedError));
    }
  }

  return (
    <Dialog open={upkeep !== null} onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{upkeep ? text.title(upkeep.kitLabel) : text.confirm}</DialogTitle>
          <DialogDescription>{text.description}</DialogDescription>
        </DialogHeader>
        <form id={`${id}-form`} onSubmit={submit} className="grid gap-1.5">
          <Label htmlFor={`${id}-notes`}>Notes</Label>
          <Textarea id={`${id}-notes`} value={notes} onChange={(e) => setNotes(e.target.value)} />
        </form>
        {problem && (
          <Alert variant="destructive">
            <AlertDescription>{problem}</AlertDescription>
          </Alert>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={pending}>
            {messages.common.cancel}
          </Button>
          <Button type="submit" form={`${id}-form`} disabled={pending}>
            {pending ? 'Saving...' : text.confirm}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
