import { messages } from '@wellrest/core';

/**
 * The centred spinner of the console's start-up (session check, a screen's code on its way): the
 * same markup index.html paints before any script runs, so one replaces the other without a
 * shift. Part of the page's first scripts, it draws its own icon and joins no classes: no icon
 * library or class merger is loaded for it.
 */
export function FullScreenSpinner({ label = messages.common.loading }: { label?: string }) {
  return (
    <div className="flex min-h-dvh w-full items-center justify-center">
      <span role="status" className="inline-flex items-center gap-2">
        <svg
          xmlns="http://www.w3.org/2000/svg"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
          className="size-8 animate-spin text-accent-700"
          aria-hidden="true"
        >
          <path d="M21 12a9 9 0 1 1-6.219-8.56" />
        </svg>
        <span className="sr-only">{label}</span>
      </span>
    </div>
  );
}
