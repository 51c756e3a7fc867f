import { formatDate, KIT_TYPES, type KitType, MaintenanceScheduleInput } from '@wellrest/core';
import { CalendarClock, Wrench } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { EmptyState, QueryState } from '@/components/QueryState';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { FieldMessage, Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import {
  type MaintenanceSchedule,
  useInventoryKits,
  useMaintenanceSchedules,
  useSaveSchedule,
} from './queries';
import { type Upkeep, UpkeepDialog } from './UpkeepDialog';

function ScheduleRow({
  kitType,
  schedule,
  canManage,
}: {
  kitType: KitType;
  schedule: MaintenanceSchedule | undefined;
  canManage: boolean;
}) {
  const [everyDays, setEveryDays] = useState(schedule ? String(schedule.everyDays) : '');
  const [error, setError] = useState<string | null>(null);
  const save = useSaveSchedule();
  const fieldId = `schedule-${kitType}`;
  useEffect(() => setEveryDays(schedule ? String(schedule.everyDays) : ''), [schedule]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = MaintenanceScheduleInput.safeParse({ kitType, everyDays: Number(everyDays) });
    if (!parsed.success || everyDays.trim() === '') {
      setError('Enter a whole number of days from 1 to 3650.');
      return;
    }
    setError(null);
    try {
      await save.mutateAsync(parsed.data);
      toast({
        variant: 'success',
        title: 'Schedule saved',
        description: `${kitType} kits are serviced every ${parsed.data.everyDays} days.`,
      });
    } catch (failure) {
      setError(errorMessage(failure, 'The schedule could not be saved.'));
    }
  }

  return (
    <form
      onSubmit={submit}
      className="flex flex-wrap items-end gap-3 py-3"
      aria-label={`${kitType} schedule`}
    >
      <div className="min-w-32 flex-1">
        <p className="font-medium text-slate-900">{kitType}</p>
        <p className="text-xs text-slate-500">
          {schedule ? `Every ${schedule.everyDays} days` : 'No scheduled maintenance'}
        </p>
      </div>
      {canManage && (
        <>
          <div className="grid w-36 gap-1.5">
            <Label htmlFor={fieldId}>Every (days)</Label>
            <Input
              id={fieldId}
              inputMode="numeric"
              value={everyDays}
              onChange={(e) => setEveryDays(e.target.value)}
              aria-invalid={Boolean(error)}
              aria-describedby={error ? `${fieldId}-error` : undefined}
            />
          </div>
          <Button type="submit" variant="outline" disabled={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save'}
          </Button>
          <div className="basis-full">
            <FieldMessage id={`${fieldId}-error`}>{error}</FieldMessage>
          </div>
        </>
      )}
    </form>
  );
}

/** Scheduled maintenance by kit type, the kits due for it, and kits taken out for maintenance. */
export function MaintenanceTab({ canManage }: { canManage: boolean }) {
  const schedules = useMaintenanceSchedules();
  const inMaintenance = useInventoryKits({ status: 'maintenance' });
  const [upkeep, setUpkeep] = useState<Upkeep | null>(null);
  const byType = new Map((schedules.data?.schedules ?? []).map((s) => [s.kitType, s]));
  const due = schedules.data?.due ?? [];

  return (
    <div className="grid min-w-0 grid-cols-1 gap-6 lg:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <CalendarClock className="size-4" aria-hidden /> Schedules by kit type
          </CardTitle>
          <CardDescription>How often each kit type needs routine maintenance.</CardDescription>
        </CardHeader>
        <CardContent>
          <QueryState query={schedules}>
            <div className="divide-y divide-slate-100">
              {KIT_TYPES.map((type) => (
                <ScheduleRow key={type} kitType={type} schedule={byType.get(type)} canManage={canManage} />
              ))}
            </div>
          </QueryState>
        </CardContent>
      </Card>

      <div className="grid content-start gap-6">
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <Wrench className="size-4" aria-hidden /> Maintenance due
            </CardTitle>
            <CardDescription>Kits whose scheduled maintenance falls due today or earlier.</CardDescription>
          </CardHeader>
          <CardContent>
            <QueryState query={schedules}>
              {due.length === 0 ? (
                <EmptyState title="No maintenance due" />
              ) : (
                <ul className="divide-y divide-slate-100" aria-label="Kits due for maintenance">
                  {due.map((kit) => (
                    <li key={kit.kitId} className="flex flex-wrap items-center justify-between gap-2 py-2">
                      <div>
                        <p className="font-mono font-semibold text-slate-900">{kit.kitLabel}</p>
                        <p className="text-xs text-slate-600">
                          {kit.kitType} · due {formatDate(kit.dueOn)} · last{' '}
                          {kit.lastDoneOn ? formatDate(kit.lastDoneOn) : 'never'}
                        </p>
                      </div>
                      <Button
                        size="sm"
                        variant="outline"
                        aria-label={`Log maintenance ${kit.kitLabel}`}
                        onClick={() =>
                          setUpkeep({ kind: 'maintenance', kitId: kit.kitId, kitLabel: kit.kitLabel })
                        }
                      >
                        Log maintenance
                      </Button>
                    </li>
                  ))}
                </ul>
              )}
            </QueryState>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Out for maintenance</CardTitle>
            <CardDescription>Kits taken out of service; logging maintenance returns them.</CardDescription>
          </CardHeader>
          <CardContent>
            <QueryState query={inMaintenance}>
              {(inMaintenance.data ?? []).length === 0 ? (
                <EmptyState title="No kits in maintenance" />
              ) : (
                <ul className="divide-y divide-slate-100" aria-label="Kits in maintenance">
                  {(inMaintenance.data ?? []).map((kit) => (
                    <li key={kit.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                      <div className="flex items-center gap-2">
                        <span className="font-mono font-semibold text-slate-900">{kit.kitId}</span>
                        <Badge tone="amber">{kit.type}</Badge>
                      </div>
                      <Button
                        size="sm"
                        variant="outline"
                        aria-label={`Log maintenance ${kit.kitId}`}
                        onClick={() => setUpkeep({ kind: 'maintenance', kitId: kit.id, kitLabel: kit.kitId })}
                      >
                        Log maintenance
                      </Button>
                    </li>
                  ))}
                </ul>
              )}
            </QueryState>
          </CardContent>
        </Card>
      </div>
      <UpkeepDialog upkeep={upkeep} onClose={() => setUpkeep(null)} />
    </div>
  );
}
