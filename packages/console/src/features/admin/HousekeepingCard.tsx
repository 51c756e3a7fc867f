import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  HousekeepingPatch,
  type HousekeepingTask,
  type HousekeepingTaskStatus,
  housekeepingMessages as m,
  messages,
} from '@wellrest/core';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { QueryState } from '@/components/QueryState';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { FieldMessage } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, errorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/utils';
import { serverFieldErrors, zodFieldErrors } from '../auth/serverFields';

export interface HousekeepingView {
  tasks: HousekeepingTaskStatus[];
  auditRetentionYears: number;
}

export const HOUSEKEEPING_KEY = ['/api/admin/housekeeping'] as const;

/** The purge of expired rows: each task's retention, last run and rows removed; run it now. */
export function HousekeepingCard() {
  const query = useQuery<HousekeepingView>({ queryKey: HOUSEKEEPING_KEY });
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">{m.title}</CardTitle>
        <CardDescription>{m.description}</CardDescription>
      </CardHeader>
      <CardContent>
        <QueryState query={query}>{query.data && <HousekeepingTable view={query.data} />}</QueryState>
      </CardContent>
    </Card>
  );
}

type Draft = Record<HousekeepingTask, string>;
const draftOf = (view: HousekeepingView): Draft =>
  Object.fromEntries(view.tasks.map((t) => [t.task, String(t.retentionDays)])) as Draft;

export function HousekeepingTable({ view }: { view: HousekeepingView }) {
  const ids = useId();
  const client = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftOf(view));
  const [errors, setErrors] = useState<Partial<Record<HousekeepingTask, string>>>({});
  useEffect(() => setDraft(draftOf(view)), [view]);

  const failed = (error: unknown) => {
    const fields = serverFieldErrors(error);
    if (Object.keys(fields).length > 0) return setErrors(fields);
    toast({
      variant: 'destructive',
      title: messages.common.error,
      description: errorMessage(error, messages.common.unexpectedError),
    });
  };
  const save = useMutation({
    mutationFn: (patch: HousekeepingPatch) =>
      apiRequest<HousekeepingView>('PATCH', '/api/admin/housekeeping', patch),
    onSuccess: (saved) => {
      client.setQueryData(HOUSEKEEPING_KEY, saved);
      setErrors({});
      toast({ title: m.saved });
    },
    onError: failed,
  });
  const run = useMutation({
    mutationFn: () =>
      apiRequest<HousekeepingView & { removed: Record<HousekeepingTask, number> }>(
        'POST',
        '/api/admin/housekeeping/run',
      ),
    onSuccess: ({ removed, ...saved }) => {
      client.setQueryData(HOUSEKEEPING_KEY, saved);
      toast({ title: m.ran(Object.values(removed).reduce((sum, n) => sum + n, 0)) });
    },
    onError: failed,
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const patch = Object.fromEntries(
      view.tasks
        .filter((t) => draft[t.task] !== String(t.retentionDays))
        .map((t) => [t.task, draft[t.task].trim() === '' ? Number.NaN : Number(draft[t.task])]),
    );
    const parsed = HousekeepingPatch.safeParse(patch);
    if (!parsed.success) return setErrors(zodFieldErrors(parsed.error.issues));
    setErrors({});
    if (Object.keys(parsed.data).length > 0) save.mutate(parsed.data);
  }

  const busy = save.isPending || run.isPending;
  return (
    <form noValidate onSubmit={submit} aria-label={m.title} className="grid gap-3">
      <ul className="divide-y divide-slate-100">
        {view.tasks.map((t) => (
          <li key={t.task} className="grid gap-2 py-3 sm:grid-cols-[1fr_auto] sm:items-center sm:gap-4">
            <div className="min-w-0">
              <p className="text-sm font-medium text-slate-900">{m.tasks[t.task]}</p>
              <p className="text-xs text-slate-600">
                {m.lastRun}: {t.lastRunAt ? formatDateTime(t.lastRunAt) : m.never}
                {t.lastRemoved !== null && ` · ${m.removed}: ${t.lastRemoved}`}
              </p>
            </div>
            <div className="grid gap-1">
              <label htmlFor={`${ids}-${t.task}`} className="sr-only">
                {`${m.tasks[t.task]}: ${m.retention}`}
              </label>
              <div className="flex items-center gap-2">
                <Input
                  id={`${ids}-${t.task}`}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  className="w-24"
                  value={draft[t.task]}
                  disabled={busy}
                  aria-invalid={errors[t.task] ? true : undefined}
                  aria-describedby={errors[t.task] ? `${ids}-${t.task}-error` : undefined}
                  onChange={(e) => setDraft({ ...draft, [t.task]: e.target.value })}
                />
                <span className="text-xs text-slate-600" aria-hidden>
                  {m.retention}
                </span>
              </div>
              <FieldMessage id={`${ids}-${t.task}-error`}>{errors[t.task]}</FieldMessage>
            </div>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="outline" disabled={busy} onClick={() => run.mutate()}>
          {m.runNow}
        </Button>
        <Button type="submit" disabled={busy}>
          {m.saveRetention}
        </Button>
      </div>
    </form>
  );
}
