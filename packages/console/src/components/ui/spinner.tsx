import { messages } from '@wellrest/core';
import { LoaderCircle } from 'lucide-react';
import { cn } from '@/lib/utils';
import { PageSkeleton } from './skeleton';

/** A spinning indicator. With a `label` it is announced as a status; without, it is decorative. */
export function Spinner({ className, label }: { className?: string; label?: string }) {
  const icon = <LoaderCircle className={cn('size-5 animate-spin text-accent-700', className)} aria-hidden />;
  if (!label) return icon;
  return (
    <span role="status" className="inline-flex items-center gap-2">
      {icon}
      <span className="sr-only">{label}</span>
    </span>
  );
}

/**
 * The loading state of a page inside the console: a skeleton shaped like a page (the console's
 * convention, see skeleton.tsx). Before the console's shell exists, FullScreenSpinner
 * (full-screen-spinner.tsx) draws the centred spinner that index.html paints first.
 */
export function PageSpinner({ label = messages.common.loading }: { label?: string }) {
  return <PageSkeleton label={label} />;
}
