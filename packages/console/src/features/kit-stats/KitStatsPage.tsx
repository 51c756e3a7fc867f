import { formatDate, KIT_TYPES, type KitType } from '@wellrest/core';
import { ChartColumn } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { PageHeader } from '@/components/PageHeader';
import { EmptyState, QueryState } from '@/components/QueryState';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input, NativeSelect } from '@/components/ui/input';
import { FieldMessage, Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/utils';
import { practiceToday } from '../bookings/queries';
import { DAY_SERIES, KitBookingsChart, KitDaysChart } from './KitStatsCharts';
import {
  checkPeriod,
  PERIOD_LABELS,
  PERIOD_PRESETS,
  type Period,
  type PeriodPreset,
  percent,
  presetPeriod,
} from './period';
import type { KitTypeUsage, KitUsage, KitUsageRow } from './types';
import { useKitStats } from './useKitStats';

/** A thin bar showing how the days of a kit or kit type split between the day categories. */
function DaysBar({ usage }: { usage: KitUsage }) {
  const total = usage.daysInService;
  if (total === 0) return <div className="h-2 rounded-full bg-slate-100" />;
  return (
    <div className="flex h-2 overflow-hidden rounded-full bg-slate-100" aria-hidden>
      {DAY_SERIES.map((series) => (
        <div
          key={series.key}
          style={{ width: `${(usage[series.key] / total) * 100}%`, backgroundColor: series.color }}
        />
      ))}
    </div>
  );
}

function TypeSummaryCard({ usage }: { usage: KitTypeUsage }) {
  const share = percent(usage.utilisation);
  const figures: { label: string; value: number }[] = [
    { label: 'Bookings', value: usage.bookings },
    { label: 'Days in use', value: usage.daysInUse },
    { label: 'Days cleaning', value: usage.daysCleaning },
    { label: 'Days in maintenance', value: usage.daysMaintenance },
    { label: 'Idle days', value: usage.idleDays },
  ];
  return (
    <Card>
      <CardHeader className="pb-3 sm:pb-3">
        <div className="flex items-baseline justify-between gap-2">
          <CardTitle>{usage.kitType}</CardTitle>
          <span className="text-xs text-slate-600">
            {usage.kits} {usage.kits === 1 ? 'kit' : 'kits'}
          </span>
        </div>
      </CardHeader>
      <CardContent className="grid gap-3">
        <p>
          <span className="text-3xl font-semibold tracking-tight text-slate-900">{share}%</span>
          <span className="ml-2 text-sm text-slate-600">utilisation</span>
          <span className="block text-xs text-slate-600">
            {usage.heldDays} of {usage.daysInService} kit-days held by a booking
          </span>
        </p>
        <DaysBar usage={usage} />
        <dl className="grid divide-y divide-slate-100 text-sm">
          {figures.map((figure) => (
            <div key={figure.label} className="flex justify-between gap-2 py-1.5">
              <dt className="text-slate-600">{figure.label}</dt>
              <dd className="font-medium text-slate-900 tabular-nums">{figure.value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}

const TABLE_COLUMNS = [
  'Kit',
  'Type',
  'Days in service',
  'In use',
  'Cleaning',
  'Maintenance',
  'Idle',
  'Utilisation',
  'Bookings',
] as const;

/** The figures of the charts as a table: their text alternative, and what staff copy from. */
function KitUsageTable({ kits, period }: { kits: KitUsageRow[]; period: Period }) {
  return (
    // Focusable so the table can be scrolled sideways by keyboard on a narrow screen.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus
    <section className="overflow-x-auto" aria-label="Kit usage table" tabIndex={0}>
      <table className="w-full min-w-[44rem] text-left text-sm">
        <caption className="sr-only">
          Kit usage from {formatDate(period.from)} to {formatDate(period.to)}
        </caption>
        <thead className="border-y border-slate-200 bg-slate-50 text-xs text-slate-600 uppercase">
          <tr>
            {TABLE_COLUMNS.map((column, index) => (
              <th
                key={column}
                scope="col"
                className={cn('px-4 py-2 font-medium whitespace-nowrap', index > 1 && 'text-right')}
              >
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {kits.map((kit) => (
            <tr key={kit.kitId}>
              <th scope="row" className="px-4 py-2.5 font-medium whitespace-nowrap text-slate-900">
                {kit.kitLabel}
              </th>
              <td className="px-4 py-2.5 whitespace-nowrap text-slate-700">{kit.kitType}</td>
              {[kit.daysInService, kit.daysInUse, kit.daysCleaning, kit.daysMaintenance, kit.idleDays].map(
                (value, index) => (
                  <td
                    key={TABLE_COLUMNS[index + 2]}
                    className="px-4 py-2.5 text-right text-slate-700 tabular-nums"
                  >
                    {value}
                  </td>
                ),
              )}
              <td className="px-4 py-2.5 text-right text-slate-700 tabular-nums">
                {percent(kit.utilisation)}%
              </td>
              <td className="px-4 py-2.5 text-right font-medium text-slate-900 tabular-nums">
                {kit.bookings}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The custom period's two dates, applied together once they make a valid period. */
function CustomPeriodForm({ initial, onApply }: { initial: Period; onApply: (period: Period) => void }) {
  const [draft, setDraft] = useState<Period>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    const checked = checkPeriod(draft);
    if (!checked.ok) {
      setErrors(checked.fields);
      return;
    }
    setErrors({});
    onApply(draft);
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-wrap items-start gap-3">
      {(['from', 'to'] as const).map((field) => (
        <div key={field} className="grid gap-1.5">
          <Label htmlFor={`period-${field}`}>{field === 'from' ? 'From' : 'To'}</Label>
          <Input
            id={`period-${field}`}
            type="date"
            className="w-44"
            value={draft[field]}
            aria-invalid={errors[field] ? true : undefined}
            aria-describedby={errors[field] ? `period-${field}-error` : undefined}
            onChange={(event) => setDraft({ ...draft, [field]: event.target.value })}
          />
          <FieldMessage id={`period-${field}-error`}>{errors[field]}</FieldMessage>
        </div>
      ))}
      <Button type="submit" variant="outline" className="sm:mt-6">
        Apply
      </Button>
    </form>
  );
}

/** /simple-kit-stats: how the kits were used over a period, per kit type and per kit. */
export default function KitStatsPage() {
  const today = practiceToday();
  const [preset, setPreset] = useState<PeriodPreset>('last30');
  const [customPeriod, setCustomPeriod] = useState<Period>(() => presetPeriod('last30', today));
  const [kitType, setKitType] = useState<KitType | ''>('');
  const period = preset === 'custom' ? customPeriod : presetPeriod(preset, today);
  const stats = useKitStats(period, kitType);
  const kits = stats.data?.byKit ?? [];

  return (
    <>
      <PageHeader
        title="Kit utilisation"
        description="How the kits were used over a period: days in use, cleaning, maintenance and idle, and bookings per kit."
      />

      <Card className="mb-6">
        <CardContent className="grid gap-4 pt-5 sm:pt-6">
          <div className="flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
            <fieldset className="grid gap-1.5">
              <legend className="mb-1.5 text-sm font-medium text-slate-800">Period</legend>
              <div className="flex flex-wrap gap-1 rounded-lg bg-slate-100 p-1">
                {PERIOD_PRESETS.map((choice) => (
                  <button
                    key={choice}
                    type="button"
                    aria-pressed={preset === choice}
                    onClick={() => setPreset(choice)}
                    className={cn(
                      'rounded-md px-3 py-1.5 text-sm font-medium text-slate-700 transition-colors hover:text-slate-900',
                      preset === choice && 'bg-white text-slate-900 shadow-sm',
                    )}
                  >
                    {PERIOD_LABELS[choice]}
                  </button>
                ))}
              </div>
            </fieldset>
            <div className="grid gap-1.5">
              <Label htmlFor="kit-type-filter">Kit type</Label>
              <NativeSelect
                id="kit-type-filter"
                className="sm:w-52"
                value={kitType}
                onChange={(event) => setKitType(event.target.value as KitType | '')}
              >
                <option value="">All kit types</option>
                {KIT_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {type}
                  </option>
                ))}
              </NativeSelect>
            </div>
          </div>
          {preset === 'custom' && <CustomPeriodForm initial={customPeriod} onApply={setCustomPeriod} />}
          <p className="flex items-center gap-2 text-sm text-slate-600" aria-live="polite">
            Showing {formatDate(period.from)} to {formatDate(period.to)}
            {stats.isFetching && !stats.isPending && <Spinner className="size-4" label="Updating" />}
          </p>
        </CardContent>
      </Card>

      <QueryState query={stats}>
        {kits.length === 0 ? (
          <EmptyState icon={<ChartColumn className="size-6" aria-hidden />} title="No kits in service">
            No kit{kitType ? ` of type ${kitType}` : ''} was in service in this period. Choose another period
            or kit type.
          </EmptyState>
        ) : (
          <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
            <section aria-labelledby="by-type-title" className="grid gap-3">
              <h2 id="by-type-title" className="text-base font-semibold text-slate-900">
                By kit type
              </h2>
              <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
                {(stats.data?.byType ?? []).map((usage) => (
                  <TypeSummaryCard key={usage.kitType} usage={usage} />
                ))}
              </div>
            </section>

            <Card>
              <CardHeader>
                <CardTitle>By kit</CardTitle>
                <CardDescription>
                  Each kit's days in service split into in use, cleaning, maintenance and idle, and its
                  bookings.
                </CardDescription>
              </CardHeader>
              <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-8 lg:grid-cols-2">
                <KitDaysChart kits={kits} />
                <KitBookingsChart kits={kits} />
              </CardContent>
              <KitUsageTable kits={kits} period={period} />
            </Card>
          </div>
        )}
      </QueryState>
    </>
  );
}
