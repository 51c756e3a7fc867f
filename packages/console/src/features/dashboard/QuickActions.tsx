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
}: {
  onNewBooking: () => void;
  onSyncGhl: () => void;
  syncing?: boolean;
}) {
  return (
    <Card role="region" aria-labelledby="quick-actions-title">
      <CardHeader>
        <CardTitle id="quick-actions-title">{messages.dashboard.quickActions}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-2">
        <Button className="justify-start" onClick={onNewBooking}>
          <CalendarPlus aria-hidden />
          {messages.booking.newBooking}
        </Button>
        <Button variant="outline" className="justify-start" asChild>
          <Link href="/inventory">
            <Package aria-hidden />
            {messages.dashboard.manageInventory}
          </Link>
        </Button>
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
      </CardContent>
    </Card>
  );
}
