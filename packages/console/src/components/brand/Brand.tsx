import { cn } from '@/lib/utils';

/** The Wellrest mark: the letter W on the accent colour, with the product name beside it. */
export function Brand({ className, showName = true }: { className?: string; showName?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2.5', className)}>
      <span
        aria-hidden
        className="grid size-8 place-content-center rounded-lg bg-accent-700 text-base font-bold text-white shadow-sm"
      >
        W
      </span>
      {showName ? (
        <span className="text-base font-semibold tracking-tight text-slate-900">Wellrest</span>
      ) : (
        <span className="sr-only">Wellrest</span>
      )}
    </span>
  );
}
