import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { CHART_TOOLTIP_STYLE } from '@/lib/chartTheme';
import type { KitUsageRow } from './types';

/** The day categories of a kit's period, in stacking order, with their chart colours. */
export const DAY_SERIES = [
  { key: 'daysInUse', label: 'In use', color: 'var(--chart-1)' },
  { key: 'daysCleaning', label: 'Cleaning', color: 'var(--chart-2)' },
  { key: 'daysMaintenance', label: 'Maintenance', color: 'var(--chart-3)' },
  { key: 'idleDays', label: 'Idle', color: 'var(--chart-muted)' },
] as const;

const BOOKINGS_COLOR = 'var(--chart-4)';
const AXIS_TICK = { fontSize: 12, fill: 'var(--chart-axis)' };

/** One bar per kit: tall enough to read every label, whatever the number of kits. */
function chartHeight(kits: number): number {
  return Math.max(200, kits * 30 + 80);
}

/**
 * A chart with its text alternative: the picture is one image to assistive technology, named by
 * its caption and pointing at the table that holds the same figures.
 */
function ChartFigure({
  id,
  title,
  summary,
  height,
  children,
}: {
  id: string;
  title: string;
  summary: string;
  height: number;
  children: React.ReactElement;
}) {
  return (
    <figure className="grid gap-3" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="text-sm font-semibold text-slate-900">
        {title}
      </figcaption>
      <div role="img" aria-label={summary} style={{ height }} className="w-full min-w-0">
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

/** Days in use, cleaning, maintenance and idle per kit, stacked to the kit's days in service. */
export function KitDaysChart({ kits }: { kits: KitUsageRow[] }) {
  return (
    <ChartFigure
      id="kit-days-chart"
      title="Days per kit"
      summary={`Stacked bars of days in use, cleaning, maintenance and idle for ${kits.length} kits. The table below lists the same figures.`}
      height={chartHeight(kits.length)}
    >
      <BarChart
        data={kits}
        layout="vertical"
        margin={{ top: 4, right: 16, bottom: 4, left: 4 }}
        accessibilityLayer={false}
      >
        <CartesianGrid horizontal={false} stroke="var(--chart-grid)" />
        <XAxis type="number" allowDecimals={false} tick={AXIS_TICK} stroke="var(--chart-axis)" />
        <YAxis type="category" dataKey="kitLabel" width={96} tick={AXIS_TICK} stroke="var(--chart-axis)" />
        <Tooltip cursor={{ fill: 'var(--chart-cursor)' }} contentStyle={CHART_TOOLTIP_STYLE} />
        {/* Series in stacking order, named in dark text (the swatch carries the colour). */}
        <Legend
          itemSorter={null}
          wrapperStyle={{ fontSize: 12 }}
          formatter={(value: string) => <span style={{ color: 'var(--color-slate-700)' }}>{value}</span>}
        />
        {DAY_SERIES.map((series) => (
          <Bar
            key={series.key}
            dataKey={series.key}
            name={series.label}
            stackId="days"
            fill={series.color}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ChartFigure>
  );
}

/** How many bookings each kit had in the period. */
export function KitBookingsChart({ kits }: { kits: KitUsageRow[] }) {
  return (
    <ChartFigure
      id="kit-bookings-chart"
      title="Bookings per kit"
      summary={`Bars of the number of bookings of each of ${kits.length} kits. The table below lists the same figures.`}
      height={chartHeight(kits.length)}
    >
      <BarChart
        data={kits}
        layout="vertical"
        margin={{ top: 4, right: 16, bottom: 4, left: 4 }}
        accessibilityLayer={false}
      >
        <CartesianGrid horizontal={false} stroke="var(--chart-grid)" />
        <XAxis type="number" allowDecimals={false} tick={AXIS_TICK} stroke="var(--chart-axis)" />
        <YAxis type="category" dataKey="kitLabel" width={96} tick={AXIS_TICK} stroke="var(--chart-axis)" />
        <Tooltip cursor={{ fill: 'var(--chart-cursor)' }} contentStyle={CHART_TOOLTIP_STYLE} />
        <Bar dataKey="bookings" name="Bookings" fill={BOOKINGS_COLOR} isAnimationActive={false} />
      </BarChart>
    </ChartFigure>
  );
}
