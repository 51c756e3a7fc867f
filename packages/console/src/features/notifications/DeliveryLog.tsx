import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DELIVERY_STATUSES,
  type DeliveryStatus,
  messagingMessages,
  RETRYABLE_DELIVERY_STATUSES,
  TEMPLATE_CHANNELS,
} from '@wellrest/core';
import { Mail } from 'lucide-react';
import { useState } from 'react';
import { EmptyState, QueryState } from '@/components/QueryState';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input, NativeSelect } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, errorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/utils';

const m = messagingMessages.deliveries;

export interface DeliveryRow {
  id: number;
  channel: 'email' | 'sms';
  recipient: string;
  status: DeliveryStatus;
  attempts: number;
  transport: string | null;
  providerId: string | null;
  errorCode: string | null;
  containsPhi: boolean;
  template: { id: number; name: string | null; version: number | null } | null;
  createdAt: string;
}

interface DeliveryDetail extends DeliveryRow {
  content: { subject?: string; html?: string; text?: string; body?: string } | null;
  phiHidden: boolean;
}

const STATUS_TONE: Record<DeliveryStatus, 'green' | 'red' | 'amber' | 'blue' | 'neutral' | 'purple'> = {
  queued: 'amber',
  sending: 'blue',
  sent: 'green',
  delivered: 'green',
  failed: 'red',
  bounced: 'red',
  outbox: 'purple',
};

export function StatusBadge({ status }: { status: DeliveryStatus }) {
  return <Badge tone={STATUS_TONE[status]}>{messagingMessages.deliveryStatuses[status]}</Badge>;
}

function MessageDialog({ id, onClose }: { id: number | null; onClose: () => void }) {
  const detail = useQuery<DeliveryDetail>({ queryKey: [`/api/deliveries/${id}`], enabled: id !== null });
  const data = detail.data;
  return (
    <Dialog open={id !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{m.view}</DialogTitle>
          <DialogDescription>
            {data ? `${data.recipient} · ${formatDateTime(data.createdAt)}` : ''}
          </DialogDescription>
        </DialogHeader>
        <QueryState query={detail}>
          {data && (
            <div className="space-y-3 text-sm">
              <div className="flex flex-wrap items-center gap-2">
                <StatusBadge status={data.status} />
                {data.containsPhi && <Badge tone="orange">{messagingMessages.templates.containsPhi}</Badge>}
                {data.errorCode && <span className="font-mono text-xs text-red-700">{data.errorCode}</span>}
              </div>
              {data.status === 'outbox' && <p className="text-slate-600">{m.outboxNote}</p>}
              {data.phiHidden || !data.content ? (
                <p className="rounded-md bg-slate-100 p-3 text-slate-700">{m.phiHidden}</p>
              ) : (
                <>
                  {data.content.subject && <p className="font-semibold">{data.content.subject}</p>}
                  {data.content.html ? (
                    <iframe
                      title={m.view}
                      sandbox=""
                      srcDoc={data.content.html}
                      className="h-64 w-full rounded-md border border-slate-200"
                    />
                  ) : null}
                  {(data.content.text ?? data.content.body) && (
                    <pre className="whitespace-pre-wrap rounded-md bg-slate-50 p-3 font-sans text-slate-800">
                      {data.content.text ?? data.content.body}
                    </pre>
                  )}
                </>
              )}
            </div>
          )}
        </QueryState>
      </DialogContent>
    </Dialog>
  );
}

/** The delivery log: every email and text, filtered by channel, status and day; retry and view. */
export function DeliveryLog() {
  const [channel, setChannel] = useState('');
  const [status, setStatus] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [viewing, setViewing] = useState<number | null>(null);
  const params = new URLSearchParams();
  if (channel) params.set('channel', channel);
  if (status) params.set('status', status);
  if (from) params.set('from', from);
  if (to) params.set('to', to);
  const query = params.toString();
  const list = useQuery<{ items: DeliveryRow[] }>({
    queryKey: [`/api/deliveries${query ? `?${query}` : ''}`],
    refetchInterval: 10_000,
  });
  const client = useQueryClient();
  const retry = useMutation({
    mutationFn: (id: number) => apiRequest('POST', `/api/deliveries/${id}/retry`),
    onSuccess: () => {
      toast(m.retried);
      void client.invalidateQueries({
        predicate: (q) => String(q.queryKey[0]).startsWith('/api/deliveries'),
      });
    },
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: m.retryFailed,
        description: errorMessage(error, m.retryFailed),
      }),
  });
  const rows = list.data?.items ?? [];
  return (
    <div className="space-y-4">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <div className="space-y-1">
          <Label htmlFor="delivery-channel">{messagingMessages.templates.channel}</Label>
          <NativeSelect id="delivery-channel" value={channel} onChange={(e) => setChannel(e.target.value)}>
            <option value="">{m.allChannels}</option>
            {TEMPLATE_CHANNELS.map((c) => (
              <option key={c} value={c}>
                {messagingMessages.channels[c]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="space-y-1">
          <Label htmlFor="delivery-status">{m.status}</Label>
          <NativeSelect id="delivery-status" value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">{m.allStatuses}</option>
            {DELIVERY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {messagingMessages.deliveryStatuses[s]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="space-y-1">
          <Label htmlFor="delivery-from">{m.from}</Label>
          <Input id="delivery-from" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </div>
        <div className="space-y-1">
          <Label htmlFor="delivery-to">{m.to}</Label>
          <Input id="delivery-to" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </div>
      </div>
      <QueryState query={list}>
        {rows.length === 0 ? (
          <EmptyState icon={<Mail className="size-8" aria-hidden />} title={m.empty} />
        ) : (
          <Card>
            <CardContent className="overflow-x-auto p-0">
              <table className="w-full text-left text-sm" aria-label={m.title}>
                <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
                  <tr>
                    <th className="px-3 py-2 font-medium">{m.created}</th>
                    <th className="px-3 py-2 font-medium">{messagingMessages.templates.channel}</th>
                    <th className="px-3 py-2 font-medium">{m.recipient}</th>
                    <th className="px-3 py-2 font-medium">{m.template}</th>
                    <th className="px-3 py-2 font-medium">{m.status}</th>
                    <th className="px-3 py-2 font-medium">{m.attempts}</th>
                    <th className="px-3 py-2" />
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {rows.map((row) => (
                    <tr key={row.id}>
                      <td className="whitespace-nowrap px-3 py-2 text-slate-700">
                        {formatDateTime(row.createdAt)}
                      </td>
                      <td className="px-3 py-2">{messagingMessages.channels[row.channel]}</td>
                      <td className="px-3 py-2 font-mono text-xs">{row.recipient}</td>
                      <td className="px-3 py-2">
                        {row.template?.name
                          ? `${row.template.name} ${messagingMessages.templates.version(row.template.version ?? 1)}`
                          : ''}
                      </td>
                      <td className="px-3 py-2">
                        <div className="flex flex-wrap items-center gap-1">
                          <StatusBadge status={row.status} />
                          {row.errorCode && (
                            <span className="font-mono text-xs text-red-700">{row.errorCode}</span>
                          )}
                        </div>
                      </td>
                      <td className="px-3 py-2 text-center">{row.attempts}</td>
                      <td className="whitespace-nowrap px-3 py-2 text-right">
                        <Button variant="outline" size="sm" onClick={() => setViewing(row.id)}>
                          {m.view}
                        </Button>
                        {RETRYABLE_DELIVERY_STATUSES.includes(row.status) && (
                          <Button
                            variant="outline"
                            size="sm"
                            className="ml-2"
                            disabled={retry.isPending}
                            onClick={() => retry.mutate(row.id)}
                          >
                            {retry.isPending && retry.variables === row.id ? <Spinner /> : null}
                            {m.retry}
                          </Button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </CardContent>
          </Card>
        )}
      </QueryState>
      <MessageDialog id={viewing} onClose={() => setViewing(null)} />
    </div>
  );
}
