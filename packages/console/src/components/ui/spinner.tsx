import { messages } from '@wellrest/core';
import { LoaderCircle } from 'lucide-react';
import { cn } from '@/lib/utils';

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

/** A centred spinner filling its container: the loading state of a page. */
export function PageSpinner({
  label = messages.common.loading,
  fullScreen = false,
}: {
  label?: string;
  fullScreen?: boolean;
}) {
  return (
    <div
      className={cn('flex w-full items-center justify-center', fullScreen ? 'min-h-dvh' : 'min-h-64 py-16')}
    >
      <Spinner className="size-8" label={label} />
    </div>
  );
}
