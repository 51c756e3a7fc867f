import type { StatCardColor } from '@wellrest/core';
import type { LucideIcon } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { cn } from '@/lib/utils';

const COLOR_CLASSES: Record<StatCardColor, string> = {
  green: 'bg-green-50 text-green-700',
  blue: 'bg-blue-50 text-blue-700',
  purple: 'bg-purple-50 text-purple-700',
  amber: 'bg-amber-50 text-amber-700',
};

/** One number on the dashboard: title, value, icon in its colour, and a line of context. */
export function StatCard({
  title,
  value,
  icon: Icon,
  color,
  loading = false,
  subtitle,
}: {
  title: string;
  value: number | string | undefined;
  icon: LucideIcon;
  color: StatCardColor;
  loading?: boolean;
  subtitle?: string;
}) {
  return (
    <Card
      className="flex items-start justify-between gap-3 p-5"
      data-color={color}
      aria-busy={loading || undefined}
    >
      <div className="min-w-0">
        <p className="text-sm font-medium text-slate-600">{title}</p>
        {loading ? (
          <span className="mt-2 block h-8 w-16 animate-pulse rounded bg-slate-200">
            <span className="sr-only">Loading</span>
          </span>
        ) : (
          <p className="mt-1 text-3xl font-semibold tracking-tight text-slate-900 tabular-nums">
            {value ?? '—'}
          </p>
        )}
        {subtitle && !loading && <p className="mt-1 truncate text-xs text-slate-600">{subtitle}</p>}
      </div>
      <span className={cn('grid size-10 shrink-0 place-content-center rounded-lg', COLOR_CLASSES[color])}>
        <Icon className="size-5" aria-hidden />
      </span>
    </Card>
  );
}
