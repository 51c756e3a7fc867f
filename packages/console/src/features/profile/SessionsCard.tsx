import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { messages } from '@wellrest/core';
import { Monitor } from 'lucide-react';
import { EmptyState, QueryState } from '@/components/QueryState';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, errorMessage } from '@/lib/api';
import { describeUserAgent } from '@/lib/userAgent';
import { formatDateTime } from '@/lib/utils';

/** A live session as `GET /api/auth/sessions` lists it (an array, most recently active first). */
interface SessionRow {
  id: string;
  /** The session of this browser. */
  current: boolean;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  ip: string | null;
  userAgent: string | null;
}

const SESSIONS_KEY = ['/api/auth/sessions'] as const;

/** The user's signed-in sessions, each revocable except the one in use. */
export function SessionsCard() {
  const queryClient = useQueryClient();
  const sessions = useQuery<SessionRow[]>({ queryKey: SESSIONS_KEY });
  const rows = sessions.data ?? [];

  const revoke = useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', `/api/auth/sessions/${encodeURIComponent(id)}`),
    onSuccess: () => {
      toast({ title: 'Session signed out' });
      void queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
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
        <CardTitle>Sessions</CardTitle>
        <CardDescription>
          Browsers signed in to your account. Sign out any you do not recognise.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <QueryState query={sessions}>
          {rows.length === 0 ? (
            <EmptyState icon={<Monitor className="size-6" aria-hidden />} title="No active sessions" />
          ) : (
            <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
              {rows.map((session) => (
                <li
                  key={session.id}
                  className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between"
                >
                  <div className="min-w-0">
                    <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
                      {describeUserAgent(session.userAgent)}
                      {session.current && <Badge tone="accent">This browser</Badge>}
                    </p>
                    <p className="mt-1 text-xs text-slate-600">
                      {session.ip ? `${session.ip} · ` : ''}Signed in {formatDateTime(session.createdAt)} ·
                      Last active {formatDateTime(session.lastSeenAt)}
                    </p>
                  </div>
                  {!session.current && (
                    <Button
                      variant="outline"
                      size="sm"
                      onClick={() => revoke.mutate(session.id)}
                      disabled={revoke.isPending && revoke.variables === session.id}
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
