import { defineAbilityFor, messagingMessages } from '@wellrest/core';
import { BellOff } from 'lucide-react';
import { Link } from 'wouter';
import { PageHeader } from '@/components/PageHeader';
import { EmptyState, QueryState } from '@/components/QueryState';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useCurrentUser } from '@/features/auth/useCurrentUser';
import { formatDateTime } from '@/lib/utils';
import { useInbox, useMarkRead } from './api';
import { DeliveryLog } from './DeliveryLog';
import { MessagingSettingsForm } from './MessagingSettingsForm';

const m = messagingMessages.notifications;

function InboxList() {
  const inbox = useInbox();
  const { one, all } = useMarkRead();
  const items = inbox.data?.items ?? [];
  return (
    <QueryState query={inbox}>
      <div className="mb-3 flex justify-end">
        <Button
          variant="outline"
          size="sm"
          disabled={(inbox.data?.unread ?? 0) === 0 || all.isPending}
          onClick={() => all.mutate()}
        >
          {m.markAllRead}
        </Button>
      </div>
      {items.length === 0 ? (
        <EmptyState icon={<BellOff className="size-8" aria-hidden />} title={m.empty} />
      ) : (
        <Card>
          <CardContent className="p-0">
            <ul className="divide-y divide-slate-100">
              {items.map((item) => (
                <li
                  key={item.id}
                  className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-center sm:justify-between"
                >
                  <div className="min-w-0">
                    <p
                      className={
                        item.read ? 'text-sm text-slate-800' : 'text-sm font-semibold text-slate-900'
                      }
                    >
                      {item.title}
                    </p>
                    {item.body && <p className="text-sm text-slate-600">{item.body}</p>}
                    <p className="text-xs text-slate-500">{formatDateTime(item.createdAt)}</p>
                  </div>
                  <div className="flex shrink-0 gap-2">
                    {item.link && (
                      <Button asChild variant="outline" size="sm">
                        <Link href={item.link} onClick={() => !item.read && one.mutate(item.id)}>
                          {m.open}
                        </Link>
                      </Button>
                    )}
                    {!item.read && (
                      <Button variant="ghost" size="sm" onClick={() => one.mutate(item.id)}>
                        {m.markRead}
                      </Button>
                    )}
                  </div>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      )}
    </QueryState>
  );
}

/** /notifications: the inbox, and for admins and schedulers the delivery log. */
export default function NotificationsPage() {
  const { user } = useCurrentUser();
  const ability = user ? defineAbilityFor(user) : undefined;
  const canSeeLog = ability?.can('read', 'Delivery') ?? false;
  const canConfigure = ability?.can('manage', 'Setting') ?? false;
  return (
    <>
      <PageHeader title={m.title} />
      {canSeeLog ? (
        <Tabs defaultValue="inbox">
          <TabsList className="mb-4 w-auto">
            <TabsTrigger value="inbox">{m.inbox}</TabsTrigger>
            <TabsTrigger value="log">{messagingMessages.deliveries.title}</TabsTrigger>
            {canConfigure && <TabsTrigger value="settings">{messagingMessages.settings.title}</TabsTrigger>}
          </TabsList>
          <TabsContent value="inbox">
            <InboxList />
          </TabsContent>
          <TabsContent value="log">
            <DeliveryLog />
          </TabsContent>
          {canConfigure && (
            <TabsContent value="settings">
              <MessagingSettingsForm />
            </TabsContent>
          )}
        </Tabs>
      ) : (
        <InboxList />
      )}
    </>
  );
}
