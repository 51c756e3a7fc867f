import { messagingMessages } from '@wellrest/core';
import { Bell } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { Spinner } from '@/components/ui/spinner';
import { formatDateTime } from '@/lib/utils';
import { useInbox, useMarkRead, useUnreadCount } from './api';

const m = messagingMessages.notifications;

/** The header's bell: the unread count (refreshed every few seconds) and the latest notifications. */
export function NotificationBell() {
  const [open, setOpen] = useState(false);
  const unread = useUnreadCount().data?.unread ?? 0;
  const inbox = useInbox(open);
  const { one, all } = useMarkRead();
  const items = inbox.data?.items.slice(0, 8) ?? [];
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button variant="ghost" size="icon" className="relative" aria-label={m.bell(unread)}>
          <Bell className="size-5" aria-hidden />
          {unread > 0 && (
            <span
              data-testid="notification-count"
              className="absolute -top-0.5 -right-0.5 flex min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-[11px] font-semibold leading-5 text-white"
            >
              {unread > 99 ? '99+' : unread}
            </span>
          )}
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-[min(22rem,calc(100vw-2rem))]">
        <div className="flex items-center justify-between border-b border-slate-200 px-3 py-2">
          <p className="text-sm font-semibold">{m.title}</p>
          <Button
            variant="ghost"
            size="sm"
            disabled={unread === 0 || all.isPending}
            onClick={() => all.mutate()}
          >
            {m.markAllRead}
          </Button>
        </div>
        {inbox.isPending ? (
          <div className="flex justify-center p-4">
            <Spinner />
          </div>
        ) : items.length === 0 ? (
          <p className="p-4 text-center text-sm text-slate-600">{m.empty}</p>
        ) : (
          <ul className="max-h-80 divide-y divide-slate-100 overflow-y-auto">
            {items.map((item) => (
              <li key={item.id} className={item.read ? 'px-3 py-2' : 'bg-accent-50/60 px-3 py-2'}>
                <p className="text-sm font-medium text-slate-900">{item.title}</p>
                {item.body && <p className="text-xs text-slate-600">{item.body}</p>}
                <div className="mt-1 flex items-center gap-3 text-xs text-slate-500">
                  <span>{formatDateTime(item.createdAt)}</span>
                  {item.link && (
                    <Link
                      href={item.link}
                      className="font-medium text-accent-700 underline-offset-2 hover:underline"
                      onClick={() => {
                        if (!item.read) one.mutate(item.id);
                        setOpen(false);
                      }}
                    >
                      {m.open}
                    </Link>
                  )}
                  {!item.read && (
                    <button
                      type="button"
                      className="font-medium text-slate-700 underline-offset-2 hover:underline"
                      onClick={() => one.mutate(item.id)}
                    >
                      {m.markRead}
                    </button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
        <div className="border-t border-slate-200 px-3 py-2 text-center">
          <Link
            href="/notifications"
            className="text-sm font-medium text-accent-700"
            onClick={() => setOpen(false)}
          >
            {m.viewAll}
          </Link>
        </div>
      </PopoverContent>
    </Popover>
  );
}
