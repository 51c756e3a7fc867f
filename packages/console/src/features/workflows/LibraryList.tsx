import { type LibraryItemView, workflowMessages as m } from '@wellrest/core';
import { Bell, CheckCircle2, Mail, MessageSquare, RefreshCw, Webhook } from 'lucide-react';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { triggerText } from './labels';

const CHANNEL_ICON = {
  email: <Mail className="size-3.5" aria-hidden />,
  sms: <MessageSquare className="size-3.5" aria-hidden />,
  notification: <Bell className="size-3.5" aria-hidden />,
  status: <RefreshCw className="size-3.5" aria-hidden />,
  webhook: <Webhook className="size-3.5" aria-hidden />,
} as const;

const CHANNEL_NAME = {
  email: m.actions.send_email,
  sms: m.actions.send_sms,
  notification: m.actions.notify,
  status: m.actions.set_booking_status,
  webhook: m.actions.webhook,
} as const;

/** The prebuilt workflows: what starts each, what it sends to whom, and Install. */
export function LibraryList({
  items,
  canInstall,
  installingKey = null,
  onInstall,
}: {
  items: readonly LibraryItemView[];
  canInstall: boolean;
  installingKey?: string | null;
  onInstall: (item: LibraryItemView) => void;
}) {
  return (
    <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3" aria-label={m.library.title}>
      {items.map((item) => {
        const installing = installingKey === item.key;
        return (
          <li key={item.key}>
            <Card className="flex h-full flex-col">
              <CardContent className="flex grow flex-col gap-3 p-4">
                <div className="flex items-start justify-between gap-2">
                  <h2 className="text-base font-semibold text-slate-900">{item.name}</h2>
                  {item.installedWorkflowIds.length > 0 && (
                    <Badge tone="green">
                      <CheckCircle2 className="size-3" aria-hidden />
                      {m.library.alreadyInstalled}
                    </Badge>
                  )}
                </div>
                <p className="text-xs font-medium text-accent-800">{triggerText(item.trigger)}</p>
                <p className="text-sm text-slate-600">{item.description}</p>
                <div>
                  <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">
                    {m.library.sends}
                  </h3>
                  <ul className="mt-1 space-y-1">
                    {item.sends.map((send) => (
                      <li
                        key={`${send.channel}-${send.to}`}
                        className="flex items-center gap-2 text-sm text-slate-800"
                      >
                        <span className="text-slate-500">{CHANNEL_ICON[send.channel]}</span>
                        <span>
                          {CHANNEL_NAME[send.channel]} → {send.to}
                        </span>
                      </li>
                    ))}
                  </ul>
                </div>
                {canInstall && (
                  <div className="mt-auto flex flex-wrap gap-2 pt-2">
                    <Button
                      onClick={() => onInstall(item)}
                      disabled={installing}
                      aria-label={`${m.library.install}: ${item.name}`}
                    >
                      {installing ? m.library.installing : m.library.install}
                    </Button>
                    {item.installedWorkflowIds.length > 0 && (
                      <Button asChild variant="outline">
                        <Link
                          href={`/workflow-builder/${item.installedWorkflowIds.at(-1)}`}
                          aria-label={`${m.edit}: ${item.name}`}
                        >
                          {m.edit}
                        </Link>
                      </Button>
                    )}
                  </div>
                )}
              </CardContent>
            </Card>
          </li>
        );
      })}
    </ul>
  );
}

/** The library while it loads: cards shaped like the real ones. */
export function LibrarySkeleton() {
  return (
    <div
      className="grid gap-4 md:grid-cols-2 xl:grid-cols-3"
      role="status"
      aria-busy="true"
      aria-label={m.library.title}
    >
      {[0, 1, 2, 3, 4, 5].map((i) => (
        <Card key={i}>
          <CardContent className="space-y-3 p-4">
            <div className="h-5 w-2/3 animate-pulse rounded bg-slate-200" />
            <div className="h-3 w-1/3 animate-pulse rounded bg-slate-100" />
            <div className="h-12 animate-pulse rounded bg-slate-100" />
            <div className="h-4 w-1/2 animate-pulse rounded bg-slate-100" />
            <div className="h-10 w-24 animate-pulse rounded bg-slate-100" />
          </CardContent>
        </Card>
      ))}
    </div>
  );
}
