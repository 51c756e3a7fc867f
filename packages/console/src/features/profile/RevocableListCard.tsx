import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { messages } from '@wellrest/core';
import type { ReactNode } from 'react';
import { EmptyState, QueryState } from '@/components/QueryState';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, errorMessage } from '@/lib/api';
import { describeUserAgent } from '@/lib/userAgent';

/** A row of an account-security list: something tied to one browser that the user can revoke. */
export interface RevocableRow {
  id: string;
  userAgent: string | null;
}

interface RevocableListCardProps<Row extends RevocableRow> {
  /** The list endpoint; it answers an array, and `DELETE <path>/<id>` revokes one row. */
  path: string;
  title: string;
  description: ReactNode;
  emptyIcon: ReactNode;
  emptyTitle: string;
  revokedToast: string;
  isThisBrowser: (row: Row) => boolean;
  /** Whether the row may be revoked here (the session in use may not). */
  canRevoke?: (row: Row) => boolean;
  detail: (row: Row) => ReactNode;
}

/** The sessions and trusted-devices cards of /profile: one list, one revoke action. */
export function RevocableListCard<Row extends RevocableRow>({
  path,
  title,
  description,
  emptyIcon,
  emptyTitle,
  revokedToast,
  isThisBrowser,
  canRevoke = () => true,
  detail,
}: RevocableListCardProps<Row>) {
  const queryClient = useQueryClient();
  const query = useQuery<Row[]>({ queryKey: [path] });
  const rows = query.data ?? [];

  const revoke = useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', `${path}/${encodeURIComponent(id)}`),
    onSuccess: () => {
      toast({ title: revokedToast });
      void queryClient.invalidateQueries({ queryKey: [path] });
    },
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: messages.common.error,
        description: errorMessage(error, messages.common.unexpectedError),
      }),
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        <QueryState query={query}>
          {rows.length === 0 ? (
            <EmptyState icon={emptyIcon} title={emptyTitle} />
          ) : (
            <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
              {rows.map((row) => (
                <li
                  key={row.id}
                  className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between"
                >
                  <div className="min-w-0">
                    <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
                      {describeUserAgent(row.userAgent)}
                      {isThisBrowser(row) && <Badge tone="accent">This browser</Badge>}
                    </p>
                    <p className="mt-1 text-xs text-slate-600">{detail(row)}</p>
                  </div>
                  {canRevoke(row) && (
                    <Button
                      variant="outline"
                      size="sm"
                      onClick={() => revoke.mutate(row.id)}
                      disabled={revoke.isPending && revoke.variables === row.id}
                    >
                      Revoke
                    </Button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
