import { type BadgeColor, bookingStatusColor, messages } from '@wellrest/core';
import { Badge } from '@/components/ui/badge';

const LABELS: Readonly<Record<string, string>> = messages.booking.statusLabels;

/** The label of a booking status; an unknown status is shown as it came, underscores as spaces. */
export function statusLabel(status: string): string {
  return LABELS[status] ?? status.replaceAll('_', ' ');
}

/** The badge tone of a status colour (spec §4: pending yellow, confirmed green, ... other grey). */
export function statusTone(status: string): BadgeColor {
  return bookingStatusColor(status);
}

export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge tone={statusTone(status)} data-status={status}>
      {statusLabel(status)}
    </Badge>
  );
}
