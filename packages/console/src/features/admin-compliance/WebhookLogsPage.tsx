import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { defineAbilityFor, messages, type WebhookDeliveryView, webhookMessages } from '@wellrest/core';
import { RotateCcw, Webhook } from 'lucide-react';
import { useState } from 'react';
import { PageHeader } from '@/components/PageHeader';
import { EmptyState, ErrorState } from '@/components/QueryState';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { PageSpinner, Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, errorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/utils';
import { useCurrentUser } from '../auth/useCurrentUser';

const text = webhookMessages;
export const WEBHOOK_LOGS_KEY = ['/api/webhook-logs'] as const;

interface WebhookPage {
  items: WebhookDeliveryView[];
  nextBefore: number | null;
}

const STATUS_TONE = {
  processed: 'green',
  ignored: 'grey',
  duplicate: 'blue',
  rejected: 'red',
  failed: 'red',
} as const;
const SIGNATURE_TONE = { valid: 'green', not_applicable: 'grey' } as const;

/** One delivery: what it was, what happened, its payload (masked when the viewer may not read patients). */
export function DeliveryCard({
  delivery,
  canReplay,
  replaying,
  onReplay,
}: {
  delivery: WebhookDeliveryView;
  canReplay: boolean;
  replaying: boolean;
  onReplay: () => void;
}) {
  return (
    <Card className="grid gap-2 p-4" aria-label={`Webhook ${delivery.id}`} role="article">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="font-mono text-sm font-medium">{delivery.event || '—'}</p>
          <p className="text-xs text-slate-600">
            {formatDateTime(delivery.receivedAt)} · {delivery.direction} · {delivery.source}
          </p>
        </div>
        <div className="flex flex-wrap gap-1">
          <Badge tone={STATUS_TONE[delivery.status]}>{delivery.status}</Badge>
          <Badge tone={SIGNATURE_TONE[delivery.signature as keyof typeof SIGNATURE_TONE] ?? 'red'}>
            {text.columns.signature}: {delivery.signature.replaceAll('_', ' ')}
          </Badge>
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 text-xs text-slate-700 sm:grid-cols-4">
        <div>
          <dt className="text-slate-500">{text.columns.attempts}</dt>
          <dd data-testid="attempts">{delivery.attempts}</dd>
        </div>
        <div>
          <dt className="text-slate-500">{text.columns.latency}</dt>
          <dd>{delivery.latencyMs === null ? '—' : `${delivery.latencyMs} ms`}</dd>
        </div>
        {delivery.reason && (
          <div className="col-span-2">
            <dt className="text-slate-500">Reason</dt>
            <dd>{delivery.reason.replaceAll('_', ' ')}</dd>
          </div>
        )}
      </dl>
      <details>
        <summary className="cursor-pointer text-sm text-accent-700">{text.payload}</summary>
        {delivery.masked && <p className="mt-1 text-xs text-slate-600">{text.masked}</p>}
        <pre className="mt-1 overflow-x-auto rounded bg-slate-50 p-2 text-xs">
          {JSON.stringify(delivery.payload, null, 2)}
        </pre>
      </details>
      {canReplay && delivery.direction === 'inbound' && delivery.signature === 'valid' && (
        <div>
          <Button variant="outline" size="sm" onClick={onReplay} disabled={replaying}>
            {replaying ? <Spinner className="size-4" /> : <RotateCcw aria-hidden />}
            {replaying ? text.replaying : text.replay}
          </Button>
        </div>
      )}
    </Card>
  );
}

/** /webhook-logs: every delivery, newest first, each replayable by an administrator. */
export default function WebhookLogsPage() {
  const queryClient = useQueryClient();
  const { user } = useCurrentUser();
  const canReplay = user ? defineAbilityFor(user).can('manage', 'WebhookLog') : false;
  const [replayingId, setReplayingId] = useState<number | null>(null);
  const pages = useInfiniteQuery({
    queryKey: WEBHOOK_LOGS_KEY,
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      apiRequest<WebhookPage>(
        'GET',
        `/api/webhook-logs?pageSize=50${pageParam ? `&before=${pageParam}` : ''}`,
        undefined,
        { signal },
      ),
    getNextPageParam: (last) => last.nextBefore ?? undefined,
  });
  const replay = useMutation({
    mutationFn: (id: number) => apiRequest<WebhookDeliveryView>('POST', `/api/webhook-logs/${id}/replay`),
    onMutate: (id) => setReplayingId(id),
    onSettled: () => setReplayingId(null),
    onSuccess: () => {
      toast({ title: text.replayed });
      void queryClient.invalidateQueries({ queryKey: WEBHOOK_LOGS_KEY });
    },
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: text.replayFailed,
        description: errorMessage(error, messages.common.unexpectedError),
      }),
  });
  const deliveries = pages.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <>
      <PageHeader title={text.title} description={text.description} />
      {pages.isPending ? (
        <PageSpinner />
      ) : pages.isError ? (
        <ErrorState error={pages.error} onRetry={() => void pages.refetch()} />
      ) : deliveries.length === 0 ? (
        <EmptyState icon={<Webhook className="size-6" aria-hidden />} title={text.empty} />
      ) : (
        <div className="grid gap-3">
          {deliveries.map((delivery) => (
            <DeliveryCard
              key={delivery.id}
              delivery={delivery}
              canReplay={canReplay}
              replaying={replayingId === delivery.id}
              onReplay={() => replay.mutate(delivery.id)}
            />
          ))}
          {pages.hasNextPage && (
            <div className="flex justify-center">
              <Button
                variant="outline"
                onClick={() => void pages.fetchNextPage()}
                disabled={pages.isFetchingNextPage}
              >
                {text.loadMore}
              </Button>
            </div>
          )}
        </div>
      )}
    </>
  );
}
