import { messages } from '@wellrest/core';
import { TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ListSkeleton } from '@/components/ui/skeleton';
import { QueryError } from '@/lib/api';

/** The error state of a list or page: what went wrong and a way to try again. */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const forbidden = error instanceof QueryError && error.status === 403;
  return (
    <Alert variant="destructive">
      <TriangleAlert aria-hidden />
      <AlertTitle>{forbidden ? messages.common.forbiddenPage : messages.common.unexpectedError}</AlertTitle>
      {!forbidden && error instanceof Error && <AlertDescription>{error.message}</AlertDescription>}
      {onRetry && !forbidden && (
        <div>
          <Button variant="outline" size="sm" className="mt-2" onClick={onRetry}>
            {messages.common.retry}
          </Button>
        </div>
      )}
    </Alert>
  );
}

/** A quiet message for a list with nothing in it. */
export function EmptyState({
  icon,
  title,
  children,
}: {
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-slate-300 px-4 py-10 text-center">
      {icon && <span className="text-slate-400">{icon}</span>}
      <p className="text-sm font-medium text-slate-900">{title}</p>
      {children && <p className="max-w-sm text-sm text-slate-600">{children}</p>}
    </div>
  );
}

/** Loading (a skeleton shaped like the content; a list unless told), error or the content of a query. */
export function QueryState({
  query,
  children,
  skeleton,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  children: ReactNode;
  skeleton?: ReactNode;
}) {
  if (query.isPending) return skeleton ?? <ListSkeleton label={messages.common.loading} />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  return children;
}
