import { formatDate, type InventoryKitHistoryEntry, messages, searchResultUrl } from '@wellrest/core';
import { CalendarDays, History, ScanLine, Sparkles, Wrench, X } from 'lucide-react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { EmptyState, QueryState } from '@/components/QueryState';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useReturnFocus } from '@/components/ui/useReturnFocus';
import { StatusBadge } from '@/features/bookings/StatusBadge';
import { formatDateTime } from '@/lib/datetime';
import { KitStatusBadge } from './KitStatusBadge';
import { type InventoryKit, useKitHistory } from './queries';

const when = (iso: string) => formatDateTime(iso);

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs font-medium text-slate-500 uppercase">{label}</dt>
      <dd className="text-sm text-slate-900">{children}</dd>
    </div>
  );
}

function EntryIcon({ kind }: { kind: InventoryKitHistoryEntry['kind'] }) {
  const Icon = { booking: CalendarDays, cleaning: Sparkles, maintenance: Wrench, scan: ScanLine }[kind];
  return (
    <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-slate-100 text-slate-600">
      <Icon className="size-4" aria-hidden />
    </span>
  );
}

function HistoryEntry({ entry }: { entry: InventoryKitHistoryEntry }) {
  let title: ReactNode;
  let detail: ReactNode = null;
  switch (entry.kind) {
    case 'booking':
      title = (
        <span className="flex flex-wrap items-center gap-2">
          <span>Booking #{entry.bookingId}</span>
          <StatusBadge status={entry.status} />
        </span>
      );
      detail = (
        <>
          <Link href={searchResultUrl('patient', entry.patientId)} className="font-medium hover:underline">
            {entry.patientName || messages.labels.unknownPatient}
          </Link>{' '}
          · {entry.testType} · {formatDate(entry.startDate)} to {formatDate(entry.endDate)}, return{' '}
          {formatDate(entry.returnDate)}
        </>
      );
      break;
    case 'cleaning':
      title = (
        <span className="flex flex-wrap items-center gap-2">
          Cleaned {formatDate(entry.cleanedOn)}
          {entry.overdue && <Badge tone="red">Late (due {formatDate(entry.dueOn)})</Badge>}
        </span>
      );
      detail = [entry.username && `by ${entry.username}`, entry.notes].filter(Boolean).join(' · ');
      break;
    case 'maintenance':
      title = `Maintenance ${formatDate(entry.doneOn)}`;
      detail = [entry.username && `by ${entry.username}`, entry.notes].filter(Boolean).join(' · ');
      break;
    case 'scan':
      title = (
        <span className="flex flex-wrap items-center gap-2">
          {entry.mode === 'checkout' ? 'Check-out scan' : 'Check-in scan'}
          <Badge tone={entry.outcome === 'accepted' ? 'green' : 'red'}>
            {entry.outcome === 'accepted' ? 'Accepted' : 'Refused'}
          </Badge>
        </span>
      );
      detail = `${entry.message}${entry.username ? ` · by ${entry.username}` : ''}`;
      break;
  }
  return (
    <li className="flex gap-3 py-3">
      <EntryIcon kind={entry.kind} />
      <div className="min-w-0 flex-1">
        <div className="text-sm font-medium text-slate-900">{title}</div>
        {detail && <p className="mt-0.5 text-sm break-words text-slate-600">{detail}</p>}
        {entry.kind !== 'booking' && <p className="mt-0.5 text-xs text-slate-500">{when(entry.at)}</p>}
      </div>
    </li>
  );
}

/** A kit's details and its whole history (bookings, cleanings, maintenance, scans), newest first. */
export function KitDetailSheet({
  kit,
  onClose,
  onEdit,
  onPrintLabel,
}: {
  kit: InventoryKit | null;
  onClose: () => void;
  onEdit?: (kit: InventoryKit) => void;
  onPrintLabel: (kit: InventoryKit) => void;
}) {
  const history = useKitHistory(kit?.id ?? null);
  const returnFocus = useReturnFocus({});
  return (
    <DialogPrimitive.Root open={kit !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-(--overlay) print:hidden data-[state=open]:animate-fade-in motion-reduce:animate-none" />
        <DialogPrimitive.Content
          className="fixed inset-y-0 right-0 z-50 flex h-full w-[32rem] max-w-full flex-col bg-white shadow-xl data-[state=open]:animate-fade-in motion-reduce:animate-none"
          {...returnFocus}
        >
          {kit && (
            <>
              <div className="flex items-start justify-between gap-3 border-b border-slate-200 p-5">
                <div className="min-w-0">
                  <DialogPrimitive.Title className="font-mono text-lg font-semibold text-slate-900">
                    {kit.kitId}
                  </DialogPrimitive.Title>
                  <DialogPrimitive.Description className="text-sm text-slate-600">
                    {kit.type} kit
                  </DialogPrimitive.Description>
                </div>
                <DialogPrimitive.Close className="rounded-md p-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-accent-600">
                  <X className="size-4" aria-hidden />
                  <span className="sr-only">Close</span>
                </DialogPrimitive.Close>
              </div>
              <div className="flex-1 overflow-y-auto p-5">
                <dl className="grid grid-cols-2 gap-4">
                  <Fact label="Status">
                    <KitStatusBadge status={kit.status} overdue={kit.cleaningOverdue} />
                  </Fact>
                  <Fact label="Serial number">{kit.serialNumber || '—'}</Fact>
                  {kit.status === 'cleaning' && (
                    <Fact label="Cleaning due">
                      {kit.cleaningDueOn ? formatDate(kit.cleaningDueOn) : '—'}
                    </Fact>
                  )}
                  <Fact label="Last cleaned">{kit.lastCleanedAt ? when(kit.lastCleanedAt) : '—'}</Fact>
                  <Fact label="Last maintenance">
                    {kit.lastMaintenanceOn ? formatDate(kit.lastMaintenanceOn) : '—'}
                  </Fact>
                  {kit.retiredAt && <Fact label="Retired">{when(kit.retiredAt)}</Fact>}
                  {kit.notes && (
                    <div className="col-span-2">
                      <Fact label="Notes">
                        <span className="whitespace-pre-wrap">{kit.notes}</span>
                      </Fact>
                    </div>
                  )}
                </dl>
                <div className="mt-4 flex flex-wrap gap-2">
                  {onEdit && kit.status !== 'retired' && (
                    <Button variant="outline" size="sm" onClick={() => onEdit(kit)}>
                      Edit
                    </Button>
                  )}
                  <Button variant="outline" size="sm" onClick={() => onPrintLabel(kit)}>
                    Print label
                  </Button>
                </div>
                <h3 className="mt-6 mb-1 flex items-center gap-2 text-sm font-semibold text-slate-900">
                  <History className="size-4" aria-hidden /> History
                </h3>
                <QueryState query={history}>
                  {(history.data ?? []).length === 0 ? (
                    <EmptyState title="No history yet">
                      Bookings, cleanings, maintenance and scans of this kit will appear here.
                    </EmptyState>
                  ) : (
                    <ol className="divide-y divide-slate-100" aria-label={`History of kit ${kit.kitId}`}>
                      {(history.data ?? []).map((entry) => (
                        <HistoryEntry key={`${entry.kind}-${entry.id}`} entry={entry} />
                      ))}
                    </ol>
                  )}
                </QueryState>
              </div>
            </>
          )}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
