import { messages } from '@wellrest/core';
import { CalendarPlus, Package, RefreshCcw } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';

/** Quick Actions: New Booking, Manage Inventory and Sync GHL. */
export function QuickActions({
  onNewBooking,
  onSyncGhl,
  syncing = false,
  canBook = true,
  canManageInventory = true,
  canSyncGhl = true,
}: {
  onNewBooking: () => void;
  onSyncGhl: () => void;
  syncing?: boolean;
  /** What the user's role allows: an action it does not is not shown. */
  canBook?: boolean;
  canManageInventory?: boolean;
  canSyncGhl?: boolean;
}) {
  if (!canBook && !canManageInventory && !canSyncGhl) return null;
  return (
    <Card role="region" aria-labelledby="quick-actions-title">
      <CardHeader>
        <CardTitle id="quick-actions-title">{messages.dashboard.quickActions}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-2">
        {canBook && (
          <Button className="justify-start" onClick={onNewBooking}>
            <CalendarPlus aria-hidden />
            {messages.booking.newBooking}
          </Button>
        )}
        {canManageInventory && (
          <Button variant="outline" className="justify-start" asChild>
            <Link href="/inventory">
              <Package aria-hidden />
              {messages.dashboard.manageInventory}
            </Link>
          </Button>
        )}
        {canSyncGhl && (
          <Button
            variant="outline"
            className="justify-start"
            onClick={onSyncGhl}
            disabled={syncing}
            aria-busy={syncing}
          >
            <RefreshCcw className={syncing ? 'animate-spin' : undefined} aria-hidden />
            {messages.ghl.syncButton}
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
