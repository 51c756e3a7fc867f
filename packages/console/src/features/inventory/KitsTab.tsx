import { frontDeskMessages, KIT_STATUSES, KIT_TYPES, type KitStatus, type KitType } from '@wellrest/core';
import { Archive, PackageSearch, Pencil, Plus, Printer } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { EmptyState, ErrorState, QueryState } from '@/components/QueryState';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input, NativeSelect } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/utils';
import { KitDetailSheet } from './KitDetailSheet';
import { KitDialog } from './KitDialog';
import { KitLabelsDialog } from './KitLabels';
import { KIT_STATUS_LABELS, KitStatusBadge } from './KitStatusBadge';
import { OverdueReturns } from './OverdueReturns';
import {
  type InventoryKit,
  type InventoryOverview,
  useInventoryKits,
  useInventoryOverview,
  useRetireKit,
} from './queries';

const SHOWN_STATUSES: KitStatus[] = ['available', 'in_use', 'cleaning', 'maintenance', 'lost'];

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** Per kit type: how many kits there are in each status. */
function OverviewCards({ overview }: { overview: InventoryOverview }) {
  return (
    <div className="grid gap-3 md:grid-cols-3">
      {KIT_TYPES.map((type) => {
        const counts = overview.countsByType?.[type];
        const fleet = overview.fleet?.byType[type];
        const total = counts ? KIT_STATUSES.reduce((sum, status) => sum + counts[status], 0) : 0;
        return (
          <Card key={type} className="p-4">
            <div className="flex items-baseline justify-between">
              <h2 className="text-sm font-semibold text-slate-900">{type}</h2>
              <span className="text-xs text-slate-500">{total} kits</span>
            </div>
            <p className="mt-1 text-2xl font-semibold text-green-700">
              {fleet?.freeToday ?? 0}
              <span className="ml-1 text-sm font-normal text-slate-600">
                {frontDeskMessages.kitsFreeToday}
              </span>
            </p>
            <p className="text-sm text-slate-700">
              <span className="font-semibold text-slate-900">{counts?.available ?? 0}</span>{' '}
              {frontDeskMessages.kitsOnShelf}
              <span className="text-slate-500"> · </span>
              <span className="font-semibold text-slate-900">{fleet?.heldToday ?? 0}</span>{' '}
              {frontDeskMessages.kitsBookedToday}
            </p>
            <dl className="mt-2 flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-600">
              {SHOWN_STATUSES.slice(1).map((status) => (
                <div key={status} className="flex gap-1">
                  <dt>{KIT_STATUS_LABELS[status]}</dt>
                  <dd className="font-medium text-slate-900">{counts?.[status] ?? 0}</dd>
                </div>
              ))}
              {(counts?.retired ?? 0) > 0 && (
                <div className="flex gap-1">
                  <dt>{KIT_STATUS_LABELS.retired}</dt>
                  <dd className="font-medium text-slate-900">{counts?.retired}</dd>
                </div>
              )}
            </dl>
          </Card>
        );
      })}
    </div>
  );
}

/** The kits: counts per type, filters, the table, and the kit dialogs. */
export function KitsTab({ canManage }: { canManage: boolean }) {
  const overview = useInventoryOverview();
  const [type, setType] = useState<KitType | ''>('');
  const [status, setStatus] = useState<KitStatus | ''>('');
  const [search, setSearch] = useState('');
  const q = useDebounced(search, 250);
  const kits = useInventoryKits({ type, status, q });
  const rows = kits.data ?? [];

  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [editing, setEditing] = useState<{ kit: InventoryKit | null; open: boolean }>({
    kit: null,
    open: false,
  });
  const [detail, setDetail] = useState<InventoryKit | null>(null);
  const [labels, setLabels] = useState<InventoryKit[]>([]);
  const [retiring, setRetiring] = useState<InventoryKit | null>(null);
  const [retireError, setRetireError] = useState<string | null>(null);
  const retire = useRetireKit();

  const selectedKits = useMemo(() => rows.filter((kit) => selected.has(kit.id)), [rows, selected]);
  const allSelected = rows.length > 0 && rows.every((kit) => selected.has(kit.id));
  // A kit shown in the sheet follows its latest data after an edit.
  const detailKit = detail ? (rows.find((kit) => kit.id === detail.id) ?? detail) : null;

  function toggle(id: number) {
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  async function confirmRetire() {
    if (!retiring) return;
    setRetireError(null);
    try {
      await retire.mutateAsync(retiring.id);
      toast({
        variant: 'success',
        title: 'Kit retired',
        description: `${retiring.kitId} is out of service.`,
      });
      setRetiring(null);
    } catch (error) {
      setRetireError(errorMessage(error, 'The kit could not be retired.'));
    }
  }

  return (
    <div className="grid min-w-0 grid-cols-1 gap-6">
      {overview.isError ? (
        <ErrorState error={overview.error} onRetry={() => void overview.refetch()} />
      ) : overview.data ? (
        <>
          <OverdueReturns returns={overview.data.overdueReturns} />
          <OverviewCards overview={overview.data} />
        </>
      ) : (
        <div className="grid gap-3 md:grid-cols-3" aria-hidden>
          {KIT_TYPES.map((t) => (
            <div key={t} className="h-28 animate-pulse rounded-xl bg-slate-100" />
          ))}
        </div>
      )}

      <section aria-labelledby="kits-title" className="grid min-w-0 grid-cols-1 gap-3">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="kits-title" className="text-base font-semibold text-slate-900">
            Kits
          </h2>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="outline"
              disabled={selectedKits.length === 0}
              onClick={() => setLabels(selectedKits)}
            >
              <Printer aria-hidden />
              Print labels{selectedKits.length > 0 ? ` (${selectedKits.length})` : ''}
            </Button>
            {canManage && (
              <Button onClick={() => setEditing({ kit: null, open: true })}>
                <Plus aria-hidden />
                Add kit
              </Button>
            )}
          </div>
        </div>
        <div className="grid gap-3 sm:grid-cols-[1fr_12rem_12rem]">
          <div className="grid gap-1.5">
            <Label htmlFor="kit-search">Search kits</Label>
            <Input
              id="kit-search"
              type="search"
              placeholder="Label or serial number"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="kit-type-filter">Type</Label>
            <NativeSelect
              id="kit-type-filter"
              value={type}
              onChange={(e) => setType(e.target.value as KitType | '')}
            >
              <option value="">All types</option>
              {KIT_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="kit-status-filter">Status</Label>
            <NativeSelect
              id="kit-status-filter"
              value={status}
              onChange={(e) => setStatus(e.target.value as KitStatus | '')}
            >
              <option value="">All statuses</option>
              {KIT_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {KIT_STATUS_LABELS[s]}
                </option>
              ))}
            </NativeSelect>
          </div>
        </div>

        <QueryState query={kits}>
          {rows.length === 0 ? (
            <EmptyState icon={<PackageSearch className="size-6" aria-hidden />} title="No kits found">
              {type || status || q ? 'No kit matches these filters.' : 'Add the first kit to start.'}
            </EmptyState>
          ) : (
            <Card className="relative overflow-x-auto">
              <table className="w-full min-w-[46rem] text-left text-sm">
                <caption className="sr-only">Kits</caption>
                <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-600 uppercase">
                  <tr>
                    <th scope="col" className="w-10 px-4 py-2">
                      <input
                        type="checkbox"
                        className="size-4 accent-accent-700"
                        aria-label="Select all kits"
                        checked={allSelected}
                        onChange={() =>
                          setSelected(allSelected ? new Set() : new Set(rows.map((kit) => kit.id)))
                        }
                      />
                    </th>
                    <th scope="col" className="px-4 py-2 font-medium">
                      Label
                    </th>
                    <th scope="col" className="px-4 py-2 font-medium">
                      Type
                    </th>
                    <th scope="col" className="px-4 py-2 font-medium">
                      Serial
                    </th>
                    <th scope="col" className="px-4 py-2 font-medium">
                      Status
                    </th>
                    <th scope="col" className="px-4 py-2 font-medium">
                      Notes
                    </th>
                    <th scope="col" className="px-4 py-2">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {rows.map((kit) => (
                    <tr
                      key={kit.id}
                      data-kit={kit.kitId}
                      className={cn(
                        kit.cleaningOverdue && 'bg-red-50',
                        selected.has(kit.id) && 'bg-accent-50',
                      )}
                    >
                      <td className="px-4 py-2">
                        <input
                          type="checkbox"
                          className="size-4 accent-accent-700"
                          aria-label={`Select ${kit.kitId}`}
                          checked={selected.has(kit.id)}
                          onChange={() => toggle(kit.id)}
                        />
                      </td>
                      <td className="px-4 py-2">
                        <button
                          type="button"
                          className="font-mono font-medium whitespace-nowrap text-accent-800 hover:underline"
                          onClick={() => setDetail(kit)}
                        >
                          {kit.kitId}
                        </button>
                      </td>
                      <td className="px-4 py-2 whitespace-nowrap text-slate-700">{kit.type}</td>
                      <td className="px-4 py-2 whitespace-nowrap text-slate-700">
                        {kit.serialNumber || '—'}
                      </td>
                      <td className="px-4 py-2">
                        <KitStatusBadge status={kit.status} overdue={kit.cleaningOverdue} />
                      </td>
                      <td
                        className="max-w-56 truncate px-4 py-2 text-slate-600"
                        title={kit.notes ?? undefined}
                      >
                        {kit.notes || ''}
                      </td>
                      <td className="px-4 py-2">
                        <div className="flex justify-end gap-1">
                          <Button
                            variant="ghost"
                            size="icon-sm"
                            aria-label={`Print label ${kit.kitId}`}
                            onClick={() => setLabels([kit])}
                          >
                            <Printer aria-hidden />
                          </Button>
                          {kit.status !== 'retired' && (
                            <Button
                              variant="ghost"
                              size="icon-sm"
                              aria-label={`Edit ${kit.kitId}`}
                              onClick={() => setEditing({ kit, open: true })}
                            >
                              <Pencil aria-hidden />
                            </Button>
                          )}
                          {kit.status !== 'retired' && (
                            <Button
                              variant="ghost"
                              size="icon-sm"
                              aria-label={`Retire ${kit.kitId}`}
                              onClick={() => {
                                setRetireError(null);
                                setRetiring(kit);
                              }}
                            >
                              <Archive aria-hidden />
                            </Button>
                          )}
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Card>
          )}
        </QueryState>
      </section>

      <KitDialog
        open={editing.open}
        kit={editing.kit}
        onOpenChange={(open) => setEditing((current) => ({ ...current, open }))}
      />
      <KitDetailSheet
        kit={detailKit}
        onClose={() => setDetail(null)}
        onEdit={(kit) => setEditing({ kit, open: true })}
        onPrintLabel={(kit) => setLabels([kit])}
      />
      <KitLabelsDialog kits={labels} onClose={() => setLabels([])} />
      <ConfirmDialog
        open={retiring !== null}
        onOpenChange={(open) => !open && setRetiring(null)}
        title={retiring ? `Retire kit ${retiring.kitId}?` : 'Retire kit'}
        description={
          <>
            A retired kit is out of service for good: it is never booked again and can no longer change.
            {retireError && (
              <span
                role="alert"
                className="mt-3 block rounded-md border border-red-200 bg-red-50 p-3 text-red-800"
              >
                {retireError}
              </span>
            )}
          </>
        }
        confirmLabel="Retire kit"
        pendingLabel="Retiring..."
        pending={retire.isPending}
        destructive
        onConfirm={() => void confirmRetire()}
      />
    </div>
  );
}
