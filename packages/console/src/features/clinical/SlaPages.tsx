import {
  clinicalMessages as cm,
  type LetterheadInput,
  type PracticeCalendar,
  REFERRAL_STAGES,
  REFERRAL_URGENCIES,
  type ReferralStage,
  type ReferralUrgency,
  type SlaDashboardView,
  type SlaDefinition,
  SlaDefinitionInput,
} from '@wellrest/core';
import { Gauge, Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useLocation } from 'wouter';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { PageHeader } from '@/components/PageHeader';
import { EmptyState, QueryState } from '@/components/QueryState';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input, NativeSelect, Textarea } from '@/components/ui/input';
import { FieldMessage, Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { CHART_TOOLTIP_STYLE } from '@/lib/chartTheme';
import { dateTimeText, SlaChip } from './badges';
import {
  fieldErrorsOf,
  useAbility,
  useDeleteDefinition,
  useLetterhead,
  usePracticeCalendar,
  useSaveCalendar,
  useSaveDefinition,
  useSaveLetterhead,
  useSlaDashboard,
  useSlaDefinitions,
} from './clinicalApi';

/** /sla/definitions: the targets (edited by an administrator). */
export default function SlaDefinitionsPage() {
  const { ability } = useAbility();
  const canEdit = ability.can('update', 'Sla');
  const definitions = useSlaDefinitions();
  const [editing, setEditing] = useState<SlaDefinition | 'new' | null>(null);
  const [deleting, setDeleting] = useState<SlaDefinition | null>(null);
  const remove = useDeleteDefinition();
  const f = cm.slaFields;
  return (
    <div>
      <PageHeader
        title={cm.slaDefinitions}
        description={cm.slaDefinitionsIntro}
        actions={
          canEdit && (
            <Button onClick={() => setEditing('new')}>
              <Plus aria-hidden />
              {cm.newDefinition}
            </Button>
          )
        }
      />
      <QueryState query={definitions}>
        {definitions.data && definitions.data.length === 0 ? (
          <EmptyState icon={<Gauge className="size-5" aria-hidden />} title={cm.noDefinitions}>
            {cm.noDefinitionsHint}
          </EmptyState>
        ) : (
          <ul className="grid gap-3">
            {definitions.data?.map((d) => (
              <li
                key={d.id}
                className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 bg-white p-4"
              >
                <div className="grid gap-1">
                  <span className="flex items-center gap-2 font-medium text-slate-900">
                    {d.name}
                    {!d.active && <Badge tone="grey">{cm.inactive}</Badge>}
                  </span>
                  <span className="text-sm text-slate-600">
                    {cm.referralStatus[d.fromStage]} → {cm.referralStatus[d.toStage]} · {d.targetHours} h ·{' '}
                    {d.businessHours ? cm.businessHoursLabel : cm.wallClock} · {f.urgencies}:{' '}
                    {d.urgencies.length === 0
                      ? cm.allUrgenciesShort
                      : d.urgencies.map((u) => cm.urgency[u]).join(', ')}
                  </span>
                </div>
                {canEdit && (
                  <span className="flex gap-1">
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => setEditing(d)}
                      aria-label={`${cm.edit}: ${d.name}`}
                    >
                      {cm.edit}
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => setDeleting(d)}
                      aria-label={`${cm.deleteDefinition}: ${d.name}`}
                    >
                      {cm.deleteDefinition}
                    </Button>
                  </span>
                )}
              </li>
            ))}
          </ul>
        )}
      </QueryState>
      <CalendarCard canEdit={canEdit} />
      <LetterheadCard canEdit={ability.can('update', 'Setting')} />
      {editing !== null && (
        <DefinitionDialog definition={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={cm.deleteDefinition}
        description={cm.deleteDefinitionConfirm}
        confirmLabel={cm.deleteDefinition}
        destructive
        pending={remove.isPending}
        onConfirm={async () => {
          if (!deleting) return;
          try {
            await remove.mutateAsync(deleting.id);
            toast({ title: cm.definitionDeleted });
          } catch (error) {
            toast({
              title: cm.deleteDefinition,
              description: errorMessage(error, ''),
              variant: 'destructive',
            });
          }
          setDeleting(null);
        }}
      />
    </div>
  );
}

/** The letterhead of the reports (administrators edit it). */
function LetterheadCard({ canEdit }: { canEdit: boolean }) {
  const letterhead = useLetterhead();
  return (
    <Card className="mt-6">
      <CardHeader>
        <CardTitle className="text-base">{cm.letterhead}</CardTitle>
        <p className="text-sm text-slate-600">{cm.letterheadIntro}</p>
      </CardHeader>
      <CardContent>
        <QueryState query={letterhead}>
          {letterhead.data && <LetterheadForm initial={letterhead.data} canEdit={canEdit} />}
        </QueryState>
      </CardContent>
    </Card>
  );
}

function LetterheadForm({ initial, canEdit }: { initial: LetterheadInput; canEdit: boolean }) {
  const save = useSaveLetterhead();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const f = cm.letterheadFields;
  return (
    <form
      className="grid gap-3 sm:grid-cols-2"
      onSubmit={async (event) => {
        event.preventDefault();
        try {
          await save.mutateAsync(values);
          setErrors({});
          toast({ title: cm.letterheadSaved, variant: 'success' });
        } catch (error) {
          setErrors(fieldErrorsOf(error));
        }
      }}
    >
      {(['name', 'address', 'phone', 'email'] as const).map((key) => (
        <div key={key} className="grid gap-1">
          <Label htmlFor={`letterhead-${key}`}>{f[key]}</Label>
          <Input
            id={`letterhead-${key}`}
            value={values[key]}
            disabled={!canEdit}
            aria-invalid={Boolean(errors[key])}
            onChange={(e) => setValues({ ...values, [key]: e.target.value })}
          />
          <FieldMessage id={`letterhead-${key}-message`}>{errors[key]}</FieldMessage>
        </div>
      ))}
      {canEdit && (
        <div className="flex justify-end sm:col-span-2">
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? cm.saving : cm.save}
          </Button>
        </div>
      )}
    </form>
  );
}

/** The practice's business hours and holidays, which business-hours targets count in. */
function CalendarCard({ canEdit }: { canEdit: boolean }) {
  const calendar = usePracticeCalendar();
  return (
    <Card className="mt-6">
      <CardHeader>
        <CardTitle className="text-base">{cm.practiceCalendar}</CardTitle>
        <p className="text-sm text-slate-600">{cm.practiceCalendarIntro}</p>
      </CardHeader>
      <CardContent>
        <QueryState query={calendar}>
          {calendar.data && <CalendarForm calendar={calendar.data} canEdit={canEdit} />}
        </QueryState>
      </CardContent>
    </Card>
  );
}

function CalendarForm({ calendar, canEdit }: { calendar: PracticeCalendar; canEdit: boolean }) {
  const save = useSaveCalendar();
  const [days, setDays] = useState<number[]>([...calendar.workDays]);
  const [open, setOpen] = useState(calendar.open);
  const [close, setClose] = useState(calendar.close);
  const [holidays, setHolidays] = useState(calendar.holidays.join('\n'));
  const [problem, setProblem] = useState<string | null>(null);
  async function submit(event: FormEvent) {
    event.preventDefault();
    const dates = holidays
      .split(/[\s,]+/)
      .map((d) => d.trim())
      .filter(Boolean);
    try {
      await save.mutateAsync({ workDays: [...days].sort(), open, close, holidays: dates });
      setProblem(null);
      toast({ title: cm.calendarSaved, variant: 'success' });
    } catch {
      setProblem(cm.calendarInvalid);
    }
  }
  return (
    <form className="grid gap-4" onSubmit={(e) => void submit(e)}>
      <p className="text-sm text-slate-600">{calendar.timeZone}</p>
      <fieldset className="grid gap-2" disabled={!canEdit}>
        <legend className="text-sm font-medium">{cm.workDays}</legend>
        <div className="flex flex-wrap gap-3">
          {cm.weekdays.map((label, day) => (
            <div key={label} className="flex items-center gap-2 text-sm">
              <Checkbox
                id={`workday-${day}`}
                checked={days.includes(day)}
                disabled={!canEdit}
                onCheckedChange={(v) => setDays(v === true ? [...days, day] : days.filter((d) => d !== day))}
              />
              <Label htmlFor={`workday-${day}`}>{label}</Label>
            </div>
          ))}
        </div>
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="grid gap-1">
          <Label htmlFor="calendar-open">{cm.opens}</Label>
          <Input
            id="calendar-open"
            type="time"
            value={open}
            disabled={!canEdit}
            onChange={(e) => setOpen(e.target.value)}
          />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="calendar-close">{cm.closes}</Label>
          <Input
            id="calendar-close"
            type="time"
            value={close}
            disabled={!canEdit}
            onChange={(e) => setClose(e.target.value)}
          />
        </div>
      </div>
      <div className="grid gap-1">
        <Label htmlFor="calendar-holidays">{cm.holidays}</Label>
        <Textarea
          id="calendar-holidays"
          value={holidays}
          disabled={!canEdit}
          aria-describedby="calendar-holidays-hint"
          onChange={(e) => setHolidays(e.target.value)}
        />
        <FieldMessage id="calendar-holidays-hint" tone={problem ? 'error' : 'hint'}>
          {problem ?? cm.holidaysHint}
        </FieldMessage>
      </div>
      {canEdit && (
        <div className="flex justify-end">
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? cm.saving : cm.save}
          </Button>
        </div>
      )}
    </form>
  );
}

function DefinitionDialog({
  definition,
  onClose,
}: {
  definition: SlaDefinition | null;
  onClose: () => void;
}) {
  const save = useSaveDefinition();
  const [name, setName] = useState(definition?.name ?? '');
  const [fromStage, setFrom] = useState<ReferralStage>(definition?.fromStage ?? 'received');
  const [toStage, setTo] = useState<ReferralStage>(definition?.toStage ?? 'contacted');
  const [hours, setHours] = useState(String(definition?.targetHours ?? 8));
  const [businessHours, setBusinessHours] = useState(definition?.businessHours ?? true);
  const [urgencies, setUrgencies] = useState<ReferralUrgency[]>(definition?.urgencies ?? []);
  const [active, setActive] = useState(definition?.active ?? true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const f = cm.slaFields;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = SlaDefinitionInput.safeParse({
      name,
      fromStage,
      toStage,
      targetHours: Number(hours),
      businessHours,
      urgencies,
      active,
    });
    if (!parsed.success) {
      const fields: Record<string, string> = {};
      for (const issue of parsed.error.issues) fields[issue.path.join('.')] ??= issue.message;
      setErrors(fields);
      return;
    }
    try {
      await save.mutateAsync({ id: definition?.id ?? null, input: parsed.data });
      toast({ title: cm.definitionSaved, variant: 'success' });
      onClose();
    } catch (error) {
      setErrors(fieldErrorsOf(error));
    }
  }

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{definition ? definition.name : cm.newDefinition}</DialogTitle>
          <DialogDescription>{cm.slaDefinitionsIntro}</DialogDescription>
        </DialogHeader>
        <form className="grid gap-3" onSubmit={(e) => void submit(e)} noValidate>
          <div className="grid gap-1">
            <Label htmlFor="sla-name">{f.name}</Label>
            <Input
              id="sla-name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              aria-invalid={Boolean(errors.name)}
            />
            <FieldMessage id="sla-name-message">{errors.name}</FieldMessage>
          </div>
          <div className="grid gap-3 sm:grid-cols-2">
            <div className="grid gap-1">
              <Label htmlFor="sla-from">{f.fromStage}</Label>
              <NativeSelect
                id="sla-from"
                value={fromStage}
                onChange={(e) => setFrom(e.target.value as ReferralStage)}
              >
                {REFERRAL_STAGES.map((s) => (
                  <option key={s} value={s}>
                    {cm.referralStatus[s]}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <div className="grid gap-1">
              <Label htmlFor="sla-to">{f.toStage}</Label>
              <NativeSelect
                id="sla-to"
                value={toStage}
                onChange={(e) => setTo(e.target.value as ReferralStage)}
                aria-invalid={Boolean(errors.toStage)}
              >
                {REFERRAL_STAGES.map((s) => (
                  <option key={s} value={s}>
                    {cm.referralStatus[s]}
                  </option>
                ))}
              </NativeSelect>
              <FieldMessage id="sla-to-message">{errors.toStage}</FieldMessage>
            </div>
          </div>
          <div className="grid gap-1">
            <Label htmlFor="sla-hours">{f.targetHours}</Label>
            <Input
              id="sla-hours"
              inputMode="decimal"
              value={hours}
              onChange={(e) => setHours(e.target.value)}
              aria-invalid={Boolean(errors.targetHours)}
            />
            <FieldMessage id="sla-hours-message">{errors.targetHours}</FieldMessage>
          </div>
          <div className="flex items-center gap-2 text-sm">
            <Checkbox
              id="sla-business"
              checked={businessHours}
              onCheckedChange={(v) => setBusinessHours(v === true)}
            />
            <Label htmlFor="sla-business">{f.businessHours}</Label>
          </div>
          <fieldset className="grid gap-1">
            <legend className="text-sm font-medium">{f.urgencies}</legend>
            <div className="flex flex-wrap gap-3">
              {REFERRAL_URGENCIES.map((u) => (
                <div key={u} className="flex items-center gap-2 text-sm">
                  <Checkbox
                    id={`sla-urgency-${u}`}
                    checked={urgencies.includes(u)}
                    onCheckedChange={(v) =>
                      setUrgencies(v === true ? [...urgencies, u] : urgencies.filter((x) => x !== u))
                    }
                  />
                  <Label htmlFor={`sla-urgency-${u}`}>{cm.urgency[u]}</Label>
                </div>
              ))}
            </div>
          </fieldset>
          <div className="flex items-center gap-2 text-sm">
            <Checkbox id="sla-active" checked={active} onCheckedChange={(v) => setActive(v === true)} />
            <Label htmlFor="sla-active">{f.active}</Label>
          </div>
          <div className="flex justify-end gap-2">
            <Button type="button" variant="outline" onClick={onClose}>
              {cm.close}
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? cm.saving : cm.save}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** /sla/dashboard: on-time share per target and per physician, what is at risk or breached, a 12-week trend. */
export function SlaDashboardPage() {
  const dashboard = useSlaDashboard();
  return (
    <div>
      <PageHeader title={cm.slaDashboard} description={cm.slaDashboardIntro} />
      <QueryState query={dashboard}>
        {dashboard.data && <SlaDashboardContent view={dashboard.data} />}
      </QueryState>
    </div>
  );
}

function percentText(value: number | null): string {
  return value === null ? '—' : `${value}%`;
}

export function SlaDashboardContent({ view }: { view: SlaDashboardView }) {
  const [, navigate] = useLocation();
  const hasData = view.perDefinition.some((d) => d.met + d.missed > 0);
  const clockList = (items: SlaDashboardView['atRisk'], empty: string) =>
    items.length === 0 ? (
      <p className="text-sm text-slate-600">{empty}</p>
    ) : (
      <ul className="grid gap-2">
        {items.map((item) => (
          <li key={`${item.referralId}-${item.result.definitionId}`}>
            <button
              type="button"
              onClick={() => navigate(`/referrals?referral=${item.referralId}`)}
              className="flex w-full flex-wrap items-center justify-between gap-2 rounded border border-slate-200 bg-white p-2 text-left text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-accent-600"
            >
              <span>
                <span className="font-medium">{item.patientName}</span>
                <span className="text-slate-600">
                  {' '}
                  · {item.physicianName} · {item.result.name}
                </span>
              </span>
              <span className="flex items-center gap-2 text-xs text-slate-600">
                {cm.due} {dateTimeText(item.result.due)}
                <SlaChip state={item.result.state} />
              </span>
            </button>
          </li>
        ))}
      </ul>
    );
  return (
    <div className="grid gap-6">
      {!hasData && <EmptyState icon={<Gauge className="size-5" aria-hidden />} title={cm.noSlaData} />}
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle className="text-base">{cm.perDefinition}</CardTitle>
          </CardHeader>
          <CardContent>
            <table className="w-full text-sm" data-testid="sla-per-definition">
              <thead className="text-left text-xs text-slate-600 uppercase">
                <tr>
                  <th className="py-1">{cm.slaFields.name}</th>
                  <th className="py-1 text-right">{cm.slaState.met}</th>
                  <th className="py-1 text-right">{cm.slaState.missed}</th>
                  <th className="py-1 text-right">{cm.onTimePercent}</th>
                </tr>
              </thead>
              <tbody>
                {view.perDefinition.map((d) => (
                  <tr key={d.definitionId} className="border-t border-slate-100">
                    <td className="py-1">{d.name}</td>
                    <td className="py-1 text-right tabular-nums">{d.met}</td>
                    <td className="py-1 text-right tabular-nums">{d.missed}</td>
                    <td className="py-1 text-right tabular-nums">{percentText(d.onTimePercent)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="text-base">{cm.perPhysician}</CardTitle>
          </CardHeader>
          <CardContent>
            <table className="w-full text-sm">
              <thead className="text-left text-xs text-slate-600 uppercase">
                <tr>
                  <th className="py-1">{cm.physicianFields.name}</th>
                  <th className="py-1 text-right">{cm.slaState.met}</th>
                  <th className="py-1 text-right">{cm.slaState.missed}</th>
                  <th className="py-1 text-right">{cm.onTimePercent}</th>
                </tr>
              </thead>
              <tbody>
                {view.perPhysician.map((p) => (
                  <tr key={p.physicianId} className="border-t border-slate-100">
                    <td className="py-1">{p.name}</td>
                    <td className="py-1 text-right tabular-nums">{p.met}</td>
                    <td className="py-1 text-right tabular-nums">{p.missed}</td>
                    <td className="py-1 text-right tabular-nums">{percentText(p.onTimePercent)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </CardContent>
        </Card>
      </div>
      <Card>
        <CardHeader>
          <CardTitle className="text-base">{cm.trend}</CardTitle>
        </CardHeader>
        <CardContent>
          <figure aria-label={cm.trend} className="h-56">
            <ResponsiveContainer width="100%" height="100%">
              <LineChart data={view.trend}>
                <CartesianGrid strokeDasharray="3 3" vertical={false} />
                <XAxis dataKey="weekStart" tick={{ fontSize: 11 }} />
                <YAxis domain={[0, 100]} tick={{ fontSize: 11 }} width={32} unit="%" />
                <Tooltip contentStyle={CHART_TOOLTIP_STYLE} />
                <Line
                  type="monotone"
                  dataKey="onTimePercent"
                  name={cm.onTimePercent}
                  stroke="var(--chart-1)"
                  connectNulls
                />
              </LineChart>
            </ResponsiveContainer>
          </figure>
        </CardContent>
      </Card>
      <div className="grid gap-4 lg:grid-cols-2">
        <section aria-labelledby="sla-at-risk">
          <h2 id="sla-at-risk" className="mb-2 text-lg font-semibold">
            {cm.atRisk} ({view.atRisk.length})
          </h2>
          {clockList(view.atRisk, cm.noneAtRisk)}
        </section>
        <section aria-labelledby="sla-breached">
          <h2 id="sla-breached" className="mb-2 text-lg font-semibold">
            {cm.breached} ({view.breached.length})
          </h2>
          {clockList(view.breached, cm.noneBreached)}
        </section>
      </div>
    </div>
  );
}
