import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  API_PATHS,
  type ExtensionEligibility,
  errorMessageFrom,
  formatDateRange,
  formatReturnDate,
  messages,
  type ReductionEligibility,
  type ToastText,
} from '@wellrest/core';
import { ArrowRightLeft, CircleCheck, TriangleAlert } from 'lucide-react';
import { useEffect } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { LinesSkeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, failureText } from '@/lib/api';
import { withTimestamp } from '@/lib/dataRequest';
import { BOOKING_DATA_KEYS } from './queries';

export type DurationChange = 'extend' | 'reduce';

/** The booking fields the dialog shows. */
export interface DurationBooking {
  id: number;
  patientName?: string | null;
  testType: string;
  startDate: string;
  endDate: string;
  returnDate?: string | null;
}

/** What the confirm button may do, and what to tell the user, from either eligibility answer. */
export interface EligibilityView {
  allowed: boolean;
  /** Why not, or what will happen. */
  message: string | null;
  warning: string | null;
}

export function extensionView(e: ExtensionEligibility): EligibilityView {
  return {
    allowed: e.canExtend,
    message: e.canExtend
      ? `${e.availableKitsCount} ${e.kitType} ${e.availableKitsCount === 1 ? 'kit is' : 'kits are'} free for the extended test period.`
      : e.reason,
    warning: e.canExtend && e.requiresKitSwap ? e.swapWarning : null,
  };
}

export function reductionView(r: ReductionEligibility): EligibilityView {
  const kit = r.kitToFree ? `Kit to free: ${r.kitToFree.kitId} (${r.kitToFree.type}).` : null;
  return {
    allowed: r.canReduce,
    message: [r.message, r.canReduce ? kit : null].filter(Boolean).join(' ') || null,
    warning: null,
  };
}

const CHANGES = {
  extend: {
    title: messages.extension.dialogTitle,
    description: 'Turn this 2-day test into a 3-day test.',
    confirm: messages.extension.confirmButton,
    working: 'Extending...',
    eligibilityPath: API_PATHS.extensionEligibility,
    changePath: API_PATHS.extendBooking,
    view: (data: unknown) => extensionView(data as ExtensionEligibility),
    checkFailed: messages.extension.checkFailed,
    done: messages.extension.extended,
    failed: messages.extension.failed,
  },
  reduce: {
    title: messages.reduction.dialogTitle,
    description: 'Turn this 3-day test into a 2-day test.',
    confirm: messages.reduction.confirmButton,
    working: 'Reducing...',
    eligibilityPath: API_PATHS.reductionEligibility,
    changePath: API_PATHS.reduceBooking,
    view: (data: unknown) => reductionView(data as ReductionEligibility),
    checkFailed: messages.reduction.checkFailed,
    done: messages.reduction.reduced,
    failed: messages.reduction.failed,
  },
} satisfies Record<
  DurationChange,
  {
    title: string;
    description: string;
    confirm: string;
    working: string;
    eligibilityPath: (id: number) => string;
    changePath: (id: number) => string;
    view: (data: unknown) => EligibilityView;
    checkFailed: ToastText;
    done: ToastText;
    failed: ToastText;
  }
>;

/**
 * Extend Test Duration / Reduce Test Duration: shows the booking, asks the server whether the
 * change is possible (with `_t` so no cache answers), and offers the confirm button only when it is.
 */
export function TestDurationDialog({
  change,
  booking,
  onClose,
}: {
  change: DurationChange;
  booking: DurationBooking | null;
  onClose: () => void;
}) {
  const config = CHANGES[change];
  const queryClient = useQueryClient();
  const bookingId = booking?.id ?? 0;

  const eligibility = useQuery({
    queryKey: [config.eligibilityPath(bookingId), 'eligibility'],
    queryFn: ({ signal }) =>
      apiRequest('GET', withTimestamp(config.eligibilityPath(bookingId)), undefined, { signal }),
    enabled: booking !== null,
    select: config.view,
  });

  useEffect(() => {
    if (eligibility.isError) toast({ variant: 'destructive', ...config.checkFailed });
  }, [eligibility.isError, config]);

  const apply = useMutation({
    mutationFn: () => apiRequest('POST', config.changePath(bookingId)),
    onSuccess: () => {
      toast({ variant: 'success', ...config.done });
      for (const queryKey of BOOKING_DATA_KEYS) void queryClient.invalidateQueries({ queryKey });
      onClose();
    },
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: config.failed.title,
        description: errorMessageFrom(failureText(error), config.failed.description),
      }),
  });

  const view = eligibility.data;
  return (
    <Dialog
      open={booking !== null}
      onOpenChange={(open) => {
        if (!open && !apply.isPending) onClose();
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{config.title}</DialogTitle>
          <DialogDescription>{config.description}</DialogDescription>
        </DialogHeader>
        {booking && (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-lg bg-slate-50 p-4 text-sm">
            <dt className="text-slate-600">Patient</dt>
            <dd className="font-medium text-slate-900">
              {booking.patientName || messages.labels.unknownPatient}
            </dd>
            <dt className="text-slate-600">Current test type</dt>
            <dd className="font-medium text-slate-900">{booking.testType}</dd>
            <dt className="text-slate-600">Test period</dt>
            <dd className="font-medium text-slate-900">
              {formatDateRange(booking.startDate, booking.endDate)}
            </dd>
            <dt className="text-slate-600">Return</dt>
            <dd className="font-medium text-slate-900">{formatReturnDate(booking.returnDate)}</dd>
          </dl>
        )}
        {eligibility.isPending && booking && <LinesSkeleton label="Checking eligibility..." lines={2} />}
        {eligibility.isError && (
          <Alert variant="destructive">
            <TriangleAlert aria-hidden />
            <AlertDescription>{config.checkFailed.description}</AlertDescription>
          </Alert>
        )}
        {view?.warning && (
          <Alert variant="warning">
            <ArrowRightLeft aria-hidden />
            <AlertDescription>{view.warning}</AlertDescription>
          </Alert>
        )}
        {view?.message && (
          <Alert variant={view.allowed ? 'success' : 'destructive'}>
            {view.allowed ? <CircleCheck aria-hidden /> : <TriangleAlert aria-hidden />}
            <AlertDescription>{view.message}</AlertDescription>
          </Alert>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={apply.isPending}>
            {messages.common.cancel}
          </Button>
          {view?.allowed && (
            <Button onClick={() => apply.mutate()} disabled={apply.isPending}>
              {apply.isPending ? config.working : config.confirm}
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
