import { useQueryClient } from '@tanstack/react-query';
import {
  addDays,
  EARLY_PICKUP_DAYS,
  formatDate,
  lastPickupStartDate,
  messages,
  type ScanMode,
  stripScannerFraming,
} from '@wellrest/core';
import { Camera, CheckCircle2, CircleX, PackageCheck, ScanLine } from 'lucide-react';
import { type KeyboardEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { EmptyState, QueryState } from '@/components/QueryState';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { type BookingRow, practiceToday, useBookings } from '@/features/bookings/queries';
import { OverdueReturns } from '@/features/inventory/OverdueReturns';
import { refreshInventory, useInventoryOverview } from '@/features/inventory/queries';
import { formatTime } from '@/lib/datetime';
import { cn } from '@/lib/utils';
import { CameraScanDialog } from './CameraScanDialog';
import { beep } from './feedback';
import { type ScanResult, sendScan, useScannerSettings } from './queries';

type Entry = ScanResult & { key: number; at: Date };

const TEXT = {
  checkout: {
    title: 'Check out',
    field: 'Scan kit to check out',
    hint: `Scan the kit a patient is picking up. Choose the booking first, or scan a kit whose booking starts today or in the next ${EARLY_PICKUP_DAYS} days.`,
  },
  checkin: {
    title: 'Check in',
    field: 'Scan kit to check in',
    hint: 'Scan each kit as it comes back. A returned kit waits for cleaning before its next booking.',
  },
} as const;

/** The bookings a clerk may check kits out for: confirmed, starting today or within the early-pickup days. */
function TodaysPickups({
  pickups,
  selected,
  onSelect,
}: {
  pickups: BookingRow[];
  selected: number | null;
  onSelect: (id: number | null) => void;
}) {
  if (pickups.length === 0) {
    return (
      <EmptyState title={messages.emptyStates.noPickups}>
        No confirmed booking starts today or in the next {EARLY_PICKUP_DAYS} days.
      </EmptyState>
    );
  }
  return (
    <ul className="grid gap-2" aria-label="Pickups due">
      {pickups.map((booking) => {
        const active = booking.id === selected;
        return (
          <li key={booking.id}>
            <button
              type="button"
              aria-pressed={active}
              onClick={() => onSelect(active ? null : booking.id)}
              className={cn(
                'flex w-full items-center justify-between gap-3 rounded-lg border px-3 py-2 text-left text-sm transition-colors focus-visible:outline-2 focus-visible:outline-accent-600',
                active ? 'border-accent-600 bg-accent-50' : 'border-slate-200 bg-white hover:bg-slate-50',
              )}
            >
              <span className="min-w-0">
                <span className="block truncate font-medium text-slate-900">
                  {booking.patientName || messages.labels.unknownPatient}
                </span>
                <span className="block text-xs text-slate-600">
                  Booking #{booking.id} · starts {formatDate(booking.startDate)} ·{' '}
                  <span className="whitespace-nowrap">{booking.testType}</span> · {booking.kitType}
                </span>
              </span>
              {/* A kit label is one word: 'ZM-002' never breaks after its hyphen. */}
              <span className="shrink-0 font-mono text-xs font-semibold whitespace-nowrap text-slate-700">
                {booking.kitLabel || messages.labels.unknownKit}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

function ScanLog({ entries }: { entries: Entry[] }) {
  if (entries.length === 0) {
    return (
      <EmptyState icon={<ScanLine className="size-6" aria-hidden />} title="No scans yet">
        Each scan appears here with its result.
      </EmptyState>
    );
  }
  return (
    <ol className="grid gap-2" aria-label="Scans">
      {entries.map((entry) => (
        <li
          key={entry.key}
          data-outcome={entry.ok ? 'accepted' : 'rejected'}
          className={cn(
            'flex gap-3 rounded-lg border px-3 py-2 text-sm',
            entry.ok
              ? 'border-green-200 bg-green-50 text-green-900'
              : 'border-red-200 bg-red-50 text-red-900',
          )}
        >
          {entry.ok ? (
            <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-green-700" aria-hidden />
          ) : (
            <CircleX className="mt-0.5 size-4 shrink-0 text-red-700" aria-hidden />
          )}
          <div className="min-w-0 flex-1">
            <p className="font-medium break-words">{entry.message}</p>
            <p className="mt-0.5 text-xs opacity-80">
              <span className="font-mono whitespace-nowrap">{entry.scan?.kitLabel ?? entry.code}</span> ·{' '}
              {formatTime(entry.at, true)}
              {entry.scan?.username && <> · scanned by {entry.scan.username}</>}
            </p>
          </div>
        </li>
      ))}
    </ol>
  );
}

/**
 * A scanning desk: one scan field that keeps the focus (keyboard-wedge scanners type the code and
 * press Enter), each scan sent as it arrives, and a running list of results with sound and colour.
 */
export function ScanStation({ mode }: { mode: ScanMode }) {
  const text = TEXT[mode];
  const queryClient = useQueryClient();
  const { settings } = useScannerSettings();
  const overview = useInventoryOverview();
  // "Today" as the server reckons it (the practice's time zone), once known.
  const today = overview.data?.today ?? practiceToday();
  const bookings = useBookings({
    from: mode === 'checkout' ? today : addDays(today, -14),
    to: mode === 'checkout' ? lastPickupStartDate(today) : today,
    enabled: !overview.isPending,
  });
  const [value, setValue] = useState('');
  const [entries, setEntries] = useState<Entry[]>([]);
  const [bookingId, setBookingId] = useState<number | null>(null);
  const [flash, setFlash] = useState<'ok' | 'error' | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [cameraOpen, setCameraOpen] = useState(false);
  const inputRef = useRef<HTMLInputElement | null>(null);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const counter = useRef(0);
  const idleTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const pickups = useMemo(
    () =>
      (bookings.data ?? [])
        .filter(
          (b) =>
            b.status === 'confirmed' && b.startDate >= today && b.startDate <= lastPickupStartDate(today),
        )
        .sort((a, b) => (a.startDate < b.startDate ? -1 : a.startDate > b.startDate ? 1 : a.id - b.id)),
    [bookings.data, today],
  );
  const out = useMemo(
    () =>
      (bookings.data ?? [])
        .filter((b) => b.status === 'picked_up')
        .sort((a, b) => (a.returnDate < b.returnDate ? -1 : 1)),
    [bookings.data],
  );

  const focusField = useCallback(() => inputRef.current?.focus(), []);

  const submit = useCallback(
    (raw: string) => {
      const code = stripScannerFraming(raw, settings);
      setValue('');
      if (!code) return;
      const forBooking = mode === 'checkout' ? bookingId : null;
      // Scans are sent one after the other, in the order they were read.
      queue.current = queue.current.then(async () => {
        const result = await sendScan({ code, mode, ...(forBooking ? { bookingId: forBooking } : {}) });
        counter.current += 1;
        setEntries((current) =>
          [{ ...result, key: counter.current, at: new Date() }, ...current].slice(0, 100),
        );
        setFlash(result.ok ? 'ok' : 'error');
        setAnnouncement(result.message);
        if (settings.sound) beep(result.ok ? 'success' : 'failure');
        if (result.ok) {
          if (forBooking) setBookingId(null);
          void refreshInventory(queryClient);
        }
      });
    },
    [bookingId, mode, queryClient, settings],
  );

  useEffect(() => {
    if (!flash) return;
    const timer = setTimeout(() => setFlash(null), 900);
    return () => clearTimeout(timer);
  }, [flash]);

  useEffect(() => () => clearTimeout(idleTimer.current), []);

  // Opening the desk puts the focus in the scan field, after whatever click opened it.
  useEffect(() => {
    const timer = setTimeout(() => inputRef.current?.focus(), 0);
    return () => clearTimeout(timer);
  }, []);

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const ends =
      (settings.terminator === 'Enter' && event.key === 'Enter') ||
      (settings.terminator === 'Tab' && event.key === 'Tab') ||
      (settings.terminator === 'none' && event.key === 'Enter');
    if (!ends) return;
    event.preventDefault();
    submit(event.currentTarget.value);
  }

  function onChange(next: string) {
    setValue(next);
    if (settings.terminator !== 'none') return;
    // A scanner that sends no Enter or Tab: the code is complete when the keys stop.
    clearTimeout(idleTimer.current);
    idleTimer.current = setTimeout(() => submit(next), 150);
  }

  // The scan field keeps the focus: a scanner types wherever the focus is.
  function onBlur() {
    setTimeout(() => {
      const active = document.activeElement;
      if (!active || active === document.body) focusField();
    }, 0);
  }

  const selected = pickups.find((b) => b.id === bookingId) ?? null;

  return (
    <div className="grid min-w-0 grid-cols-1 gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <div className="grid content-start gap-4">
        <Card>
          <CardHeader>
            <CardTitle>{text.title}</CardTitle>
            <CardDescription>{text.hint}</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-3">
            {mode === 'checkout' && (
              <p className="text-sm text-slate-700" data-testid="scan-booking">
                {selected ? (
                  <>
                    For booking #{selected.id}:{' '}
                    <span className="font-medium">
                      {selected.patientName || messages.labels.unknownPatient}
                    </span>{' '}
                    <Button
                      variant="link"
                      size="sm"
                      className="h-auto px-1"
                      onClick={() => setBookingId(null)}
                    >
                      Clear
                    </Button>
                  </>
                ) : (
                  'No booking chosen: a scanned kit is matched to its booking due for pickup.'
                )}
              </p>
            )}
            <div className="grid gap-1.5">
              <Label htmlFor={`scan-${mode}`}>{text.field}</Label>
              <div className="flex gap-2">
                <Input
                  id={`scan-${mode}`}
                  ref={inputRef}
                  autoFocus
                  value={value}
                  onChange={(e) => onChange(e.target.value)}
                  onKeyDown={onKeyDown}
                  onBlur={onBlur}
                  autoComplete="off"
                  autoCapitalize="characters"
                  spellCheck={false}
                  placeholder="Scan or type a kit label"
                  className={cn(
                    'h-12 font-mono text-lg transition-colors',
                    flash === 'ok' && 'border-green-600 bg-green-50',
                    flash === 'error' && 'border-red-600 bg-red-50',
                  )}
                />
                <Button
                  variant="outline"
                  size="icon"
                  className="size-12"
                  aria-label="Scan with camera"
                  onClick={() => setCameraOpen(true)}
                >
                  <Camera aria-hidden />
                </Button>
              </div>
              <p className="text-xs text-slate-500">
                {settings.prefix || settings.suffix
                  ? `Scanner prefix “${settings.prefix}” and suffix “${settings.suffix}” are removed.`
                  : 'Change scanner prefix and suffix handling in Scanner Setup.'}
              </p>
            </div>
            <div aria-live="assertive" aria-atomic="true" className="sr-only">
              {announcement}
            </div>
          </CardContent>
        </Card>
        <section aria-labelledby={`scan-log-${mode}`} className="grid gap-2">
          <h2 id={`scan-log-${mode}`} className="text-sm font-semibold text-slate-900">
            Scans this session
          </h2>
          <ScanLog entries={entries} />
        </section>
      </div>

      <div className="grid content-start gap-4">
        {mode === 'checkin' && overview.data && <OverdueReturns returns={overview.data.overdueReturns} />}
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <PackageCheck className="size-4" aria-hidden />
              {mode === 'checkout' ? 'Pickups due' : 'Kits out with patients'}
            </CardTitle>
          </CardHeader>
          <CardContent>
            <QueryState query={bookings}>
              {mode === 'checkout' ? (
                <TodaysPickups
                  pickups={pickups}
                  selected={bookingId}
                  onSelect={(id) => {
                    setBookingId(id);
                    focusField();
                  }}
                />
              ) : out.length === 0 ? (
                <EmptyState title={messages.emptyStates.noReturns}>No kit is out with a patient.</EmptyState>
              ) : (
                <ul className="divide-y divide-slate-100" aria-label="Kits out with patients">
                  {out.map((b) => (
                    <li key={b.id} className="flex items-center justify-between gap-3 py-2 text-sm">
                      <span className="min-w-0">
                        <span className="block truncate font-medium text-slate-900">
                          {b.patientName || messages.labels.unknownPatient}
                        </span>
                        <span className="block text-xs text-slate-600">
                          Booking #{b.id} · return {formatDate(b.returnDate)}
                        </span>
                      </span>
                      <span className="flex shrink-0 items-center gap-2">
                        {b.returnDate < today && <Badge tone="red">Overdue</Badge>}
                        <span className="font-mono text-xs font-semibold whitespace-nowrap text-slate-700">
                          {b.kitLabel || messages.labels.unknownKit}
                        </span>
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </QueryState>
          </CardContent>
        </Card>
      </div>
      <CameraScanDialog
        open={cameraOpen}
        onOpenChange={(open) => {
          setCameraOpen(open);
          if (!open) setTimeout(focusField, 0);
        }}
        onDetected={submit}
      />
    </div>
  );
}
