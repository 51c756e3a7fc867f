import {
  type ColumnDef,
  rowPaginationFeature,
  rowSortingFeature,
  type SortingState,
  tableFeatures,
  type Updater,
  useTable,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  formatDate,
  messages,
  PATIENT_VIRTUALISE_AFTER,
  type Patient,
  type PatientSortField,
  type PatientTableSort,
  patientMessages,
} from '@wellrest/core';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { type CSSProperties, type MouseEvent, useEffect, useRef } from 'react';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';

const features = tableFeatures({ rowSortingFeature, rowPaginationFeature });
type Features = typeof features;

/** Cell classes per column: the less important columns give way on narrow screens. */
const COLUMN_CLASSES: Record<string, string> = {
  name: '',
  email: 'hidden md:table-cell',
  phone: 'hidden md:table-cell',
  dateOfBirth: 'hidden lg:table-cell',
  city: 'hidden lg:table-cell',
  leadSource: '',
};

const empty = <span className="text-slate-500">—</span>;

const columns: ColumnDef<Features, Patient>[] = [
  {
    id: 'name',
    accessorKey: 'name',
    header: 'Name',
    cell: ({ row }) => {
      const patient = row.original;
      return (
        <>
          <a
            href={`#patient-${patient.id}`}
            className="font-medium text-slate-900 hover:underline focus-visible:outline-2 focus-visible:outline-accent-600"
          >
            {patient.name || messages.labels.unknownPatient}
          </a>
          <span className="block text-xs wrap-anywhere text-slate-600 md:hidden">{patient.email}</span>
          <span className="block text-xs text-slate-600 md:hidden">{patient.phone}</span>
        </>
      );
    },
  },
  {
    id: 'email',
    accessorKey: 'email',
    header: 'Email',
    cell: ({ row }) => <span className="whitespace-nowrap">{row.original.email}</span>,
  },
  {
    id: 'phone',
    accessorKey: 'phone',
    header: 'Phone',
    cell: ({ row }) => <span className="whitespace-nowrap">{row.original.phone}</span>,
  },
  {
    id: 'dateOfBirth',
    accessorKey: 'dateOfBirth',
    header: 'Date of birth',
    cell: ({ row }) =>
      row.original.dateOfBirth ? (
        <span className="whitespace-nowrap">{formatDate(row.original.dateOfBirth)}</span>
      ) : (
        empty
      ),
  },
  { id: 'city', accessorKey: 'city', header: 'City', cell: ({ row }) => row.original.city || empty },
  {
    id: 'leadSource',
    accessorKey: 'leadSource',
    header: 'Lead source',
    cell: ({ row }) => <Badge tone="neutral">{row.original.leadSource}</Badge>,
  },
];

/** The table's sorting state of a server sort ('-city' is city descending). */
function sortingOf(sort: PatientTableSort): SortingState {
  return [{ id: sort.replace(/^-/, ''), desc: sort.startsWith('-') }];
}

function sortOf(sorting: SortingState, fallback: PatientTableSort): PatientTableSort {
  const first = sorting[0];
  if (!first) return fallback;
  return `${first.desc ? '-' : ''}${first.id as PatientSortField}` as PatientTableSort;
}

function resolve<T>(updater: Updater<T>, previous: T): T {
  return typeof updater === 'function' ? (updater as (old: T) => T)(previous) : updater;
}

/** Rows are about this tall; the virtualiser measures the real height of each. */
const ROW_ESTIMATE_PX = 49;

/**
 * One page of patients, sorted and paged by the server (TanStack Table in manual mode). Up to
 * 100 rows render as they are; a larger page renders only the rows in view of its scroll area.
 */
export function PatientsTable({
  patients,
  total,
  page,
  pageSize,
  sort,
  highlighted,
  busy,
  onSortChange,
  onOpen,
}: {
  patients: Patient[];
  total: number;
  page: number;
  pageSize: number;
  sort: PatientTableSort;
  highlighted: number | null;
  busy: boolean;
  onSortChange: (sort: PatientTableSort) => void;
  onOpen: (id: number) => void;
}) {
  const sorting = sortingOf(sort);
  const table = useTable({
    features,
    columns,
    data: patients,
    getRowId: (patient) => String(patient.id),
    manualSorting: true,
    manualPagination: true,
    enableMultiSort: false,
    enableSortingRemoval: false,
    sortDescFirst: false,
    rowCount: total,
    state: { sorting, pagination: { pageIndex: page - 1, pageSize } },
    onSortingChange: (updater) => onSortChange(sortOf(resolve(updater, sorting), sort)),
  });
  const rows = table.getRowModel().rows;
  const virtual = rows.length > PATIENT_VIRTUALISE_AFTER;
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: virtual ? rows.length : 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE_PX,
    getItemKey: (index) => rows[index]?.id ?? index,
    overscan: 10,
  });

  // A deep-linked patient on this page is scrolled into view.
  const highlightedIndex =
    highlighted === null ? -1 : rows.findIndex((row) => row.original.id === highlighted);
  useEffect(() => {
    if (highlightedIndex < 0) return;
    if (virtual) virtualizer.scrollToIndex(highlightedIndex, { align: 'center' });
    else
      document
        .getElementById(`patient-${rows[highlightedIndex]?.original.id}`)
        ?.scrollIntoView({ block: 'nearest' });
  }, [highlightedIndex, virtual, virtualizer, rows]);

  const virtualItems = virtual ? virtualizer.getVirtualItems() : [];
  const shown = virtual
    ? virtualItems.map((item) => ({ row: rows[item.index], item }))
    : rows.map((row) => ({ row, item: null }));
  const paddingTop = virtual && virtualItems.length > 0 ? (virtualItems[0]?.start ?? 0) : 0;
  const paddingBottom =
    virtual && virtualItems.length > 0 ? virtualizer.getTotalSize() - (virtualItems.at(-1)?.end ?? 0) : 0;
  const firstRowIndex = (page - 1) * pageSize;

  function openFromRow(event: MouseEvent<HTMLTableRowElement>, id: number) {
    // The name is a link of its own (the keyboard's way in); a click anywhere else on the row
    // opens the same panel.
    if ((event.target as HTMLElement).closest('a,button')) return;
    onOpen(id);
  }

  return (
    <div
      ref={scrollRef}
      className={cn('overflow-x-auto', virtual && 'max-h-[70vh] overflow-y-auto')}
      data-virtualised={virtual ? 'true' : undefined}
    >
      <table className="w-full text-left text-sm" aria-rowcount={total + 1} aria-busy={busy || undefined}>
        <caption className="sr-only">{patientMessages.title}</caption>
        <thead
          className={cn(
            'border-b border-slate-200 bg-slate-50 text-xs text-slate-600',
            virtual && 'sticky top-0 z-10',
          )}
        >
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id} aria-rowindex={1}>
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                const Icon = sorted === 'asc' ? ArrowUp : sorted === 'desc' ? ArrowDown : ArrowUpDown;
                return (
                  <th
                    key={header.id}
                    scope="col"
                    aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'}
                    className={cn('px-4 py-2 font-medium', COLUMN_CLASSES[header.column.id])}
                  >
                    <button
                      type="button"
                      onClick={header.column.getToggleSortingHandler()}
                      className="-mx-2 inline-flex items-center gap-1 rounded px-2 py-1 whitespace-nowrap uppercase hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-accent-600"
                    >
                      <table.FlexRender header={header} />
                      <Icon className={cn('size-3.5', !sorted && 'text-slate-400')} aria-hidden />
                    </button>
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody
          // The rows out of view are stood in for by the body's own padding blocks, not by extra rows.
          className={cn(
            'divide-y divide-slate-100',
            virtual &&
              "before:block before:h-(--rows-above) before:content-[''] after:block after:h-(--rows-below) after:content-['']",
          )}
          style={
            virtual
              ? ({ '--rows-above': `${paddingTop}px`, '--rows-below': `${paddingBottom}px` } as CSSProperties)
              : undefined
          }
        >
          {shown.map(({ row, item }) => {
            if (!row) return null;
            const patient = row.original;
            const isHighlighted = patient.id === highlighted;
            return (
              <tr
                key={row.id}
                id={`patient-${patient.id}`}
                data-index={item?.index}
                ref={item ? virtualizer.measureElement : undefined}
                tabIndex={-1}
                aria-rowindex={firstRowIndex + (item?.index ?? row.index) + 2}
                aria-current={isHighlighted ? 'true' : undefined}
                onClick={(event) => openFromRow(event, patient.id)}
                className={cn(
                  'cursor-pointer scroll-mt-12 outline-none transition-colors hover:bg-slate-50 focus-visible:bg-accent-50',
                  isHighlighted && 'bg-accent-50 ring-2 ring-accent-600 ring-inset',
                )}
              >
                {row.getAllCells().map((cell) => (
                  <td
                    key={cell.id}
                    className={cn('px-4 py-3 text-slate-700', COLUMN_CLASSES[cell.column.id])}
                  >
                    <table.FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
