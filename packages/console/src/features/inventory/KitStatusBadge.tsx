import type { KitStatus } from '@wellrest/core';
import type { VariantProps } from 'class-variance-authority';
import { Badge, type badgeVariants } from '@/components/ui/badge';

type Tone = NonNullable<VariantProps<typeof badgeVariants>['tone']>;

export const KIT_STATUS_LABELS: Readonly<Record<KitStatus, string>> = {
  available: 'Available',
  in_use: 'In use',
  cleaning: 'Cleaning',
  maintenance: 'Maintenance',
  retired: 'Retired',
  lost: 'Lost',
};

const TONES: Readonly<Record<KitStatus, Tone>> = {
  available: 'green',
  in_use: 'purple',
  cleaning: 'blue',
  maintenance: 'amber',
  retired: 'grey',
  lost: 'red',
};

/** A kit's status; a kit whose cleaning is overdue says so in red. */
export function KitStatusBadge({ status, overdue = false }: { status: KitStatus; overdue?: boolean }) {
  if (status === 'cleaning' && overdue) {
    return (
      <Badge tone="red" data-status={status}>
        Cleaning overdue
      </Badge>
    );
  }
  return (
    <Badge tone={TONES[status]} data-status={status}>
      {KIT_STATUS_LABELS[status]}
    </Badge>
  );
}
