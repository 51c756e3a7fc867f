import { messages } from '@wellrest/core';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from '@/lib/utils';

/*
 * The console's loading convention: content that is loading shows a skeleton shaped like it (a
 * page, a list, cards); a spinner appears only inside a button whose action is running.
 */

/** A placeholder block of the content's shape. */
export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      aria-hidden
      className={cn('animate-pulse rounded-md bg-slate-200 motion-reduce:animate-none', className)}
      {...props}
    />
  );
}

/** Announces the loading once, for the skeleton inside it. */
function Loading({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div role="status" aria-busy="true" className={className}>
      <span className="sr-only">{label}</span>
      {children}
    </div>
  );
}

/** A list or table loading: a few rows of text. */
export function ListSkeleton({
  label = messages.common.loading,
  rows = 6,
}: {
  label?: string;
  rows?: number;
}) {
  return (
    <Loading label={label} className="overflow-hidden rounded-xl border border-slate-200 bg-white">
      <Skeleton className="h-9 rounded-none bg-slate-100" />
      {Array.from({ length: rows }, (_, row) => `row-${row}`).map((key) => (
        <div key={key} className="flex items-center gap-4 border-t border-slate-100 px-4 py-3">
          <Skeleton className="h-4 w-1/4" />
          <Skeleton className="h-4 w-1/5" />
          <Skeleton className="hidden h-4 w-1/6 sm:block" />
          <Skeleton className="ml-auto h-6 w-16 rounded-full" />
        </div>
      ))}
    </Loading>
  );
}

/** A page loading (its code or its data): the title block, then cards of content. */
export function PageSkeleton({ label = messages.common.loading }: { label?: string }) {
  return (
    <Loading label={label} className="grid gap-6">
      <div className="grid gap-2">
        <Skeleton className="h-7 w-56" />
        <Skeleton className="h-4 w-80 max-w-full" />
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <Skeleton className="h-24 rounded-xl" />
        <Skeleton className="h-24 rounded-xl" />
        <Skeleton className="h-24 rounded-xl" />
      </div>
      <Skeleton className="h-64 rounded-xl" />
    </Loading>
  );
}

/** Widths of skeleton lines, numbered so each line has its own key. */
const LINE_WIDTHS = Array.from({ length: 12 }, (_, n) => `${n}:${['w-2/3', 'w-5/6', 'w-1/2'][n % 3]}`);

/** A few lines of text or fields loading (a detail panel, a dialog's section). */
export function LinesSkeleton({
  label = messages.common.loading,
  lines = 4,
}: {
  label?: string;
  lines?: number;
}) {
  return (
    <Loading label={label} className="grid gap-3">
      {LINE_WIDTHS.slice(0, lines).map((width) => (
        <Skeleton key={width} className={cn('h-4', width.slice(width.indexOf(':') + 1))} />
      ))}
    </Loading>
  );
}
