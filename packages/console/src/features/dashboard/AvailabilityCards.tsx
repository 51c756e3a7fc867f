import {
  AVAILABILITY_CARD_DAYS,
  AVAILABILITY_CARD_ITEMS,
  type AvailabilityDay,
  type Dropoff,
  formatDate,
  frontDeskMessages,
  messages,
  type Pickup,
} from '@wellrest/core';
import { ArrowDownToLine, ArrowUpFromLine, CircleCheck, FileSignature, PackageCheck } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { usePrinting } from '@/lib/usePrinting';
import { cn } from '@/lib/utils';
import { canSignAgreement, patientAnchorHref, visibleItems } from './dashboardData';

const PLACEHOLDER_KEYS = Array.from({ length: AVAILABILITY_CARD_DAYS }, (_, i) => `day-${i + 1}`);

function PersonLink({ patientId, name, detail }: { patientId: number; name: string; detail: string }) {
  return (
    <Link
      href={patientAnchorHref(patientId)}
      className="block min-w-0 rounded-md px-2 py-1.5 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-accent-600"
    >
      <span className="block truncate text-sm font-medium text-slate-900">
        {name || messages.labels.unknownPatient}
      </span>
      <span className="block truncate text-xs text-slate-600">{detail}</span>
    </Link>
  );
}

function DropoffRow({ dropoff }: { dropoff: Dropoff }) {
  return (
    <li>
      <PersonLink
        patientId={dropoff.patientId}
        name={dropoff.patientName}
        detail={`${dropoff.kitType} · ${dropoff.kitId || messages.labels.unknownKit}`}
      />
    </li>
  );
}

function PickupRow({
  pickup,
  signable,
  signing,
  onSign,
}: {
  pickup: Pickup;
  signable: boolean;
  signing: boolean;
  onSign: (pickup: Pickup) => void;
}) {
  return (
    // The button goes under the name when the card is too narrow for both (four cards in a row).
    <li className="flex flex-wrap items-center gap-1">
      <div className="min-w-0 flex-[1_1_9rem]">
        <PersonLink
          patientId={pickup.patientId}
          name={pickup.patientName}
          detail={`${pickup.kitType} · ${pickup.kitId || messages.labels.unknownKit} · ${pickup.testType}`}
        />
      </div>
      {signable && pickup.agreementSignedAt ? (
        <span
          className="inline-flex shrink-0 items-center gap-1 rounded-full bg-green-50 px-2 py-1 text-xs font-medium text-green-800"
          title={frontDeskMessages.agreementSignedOn(pickup.agreementSignedAt)}
        >
          <CircleCheck className="size-3.5" aria-hidden />
          {frontDeskMessages.agreementSigned}
        </span>
      ) : (
        signable && (
          <Button
            variant="outline"
            size="sm"
            disabled={signing}
            onClick={() => onSign(pickup)}
            aria-label={`${messages.agreement.signButton}: ${pickup.patientName || messages.labels.unknownPatient}`}
          >
            {signing ? <Spinner className="size-3.5" /> : <FileSignature aria-hidden />}
            {messages.agreement.signButton}
          </Button>
        )
      )}
    </li>
  );
}

function MoreText({ children }: { children: string }) {
  return <p className="px-2 pt-1 text-xs font-medium text-slate-600">{children}</p>;
}

/** '+N more pickups' as a button that shows the rest of the day's pickups (and hides them again). */
function MoreToggle({
  expanded,
  hidden,
  controls,
  onToggle,
}: {
  expanded: boolean;
  hidden: number;
  controls: string;
  onToggle: () => void;
}) {
  return (
    <button
      type="button"
      aria-expanded={expanded}
      aria-controls={controls}
      onClick={onToggle}
      className="mx-2 mt-1 rounded text-xs font-medium text-accent-700 hover:underline focus-visible:outline-2 focus-visible:outline-accent-600"
    >
      {expanded ? frontDeskMessages.fewerPickups : messages.availability.morePickups(hidden)}
    </button>
  );
}

function Section({
  title,
  icon,
  empty,
  children,
  count,
}: {
  title: string;
  icon: React.ReactNode;
  empty: string;
  count: number;
  children: React.ReactNode;
}) {
  return (
    <div>
      <h3 className="mb-1 flex items-center gap-1.5 text-xs font-semibold tracking-wide text-slate-600 uppercase">
        {icon}
        {title}
        <span className="font-normal text-slate-500">({count})</span>
      </h3>
      {count === 0 ? <p className="px-2 py-1.5 text-sm text-slate-500">{empty}</p> : children}
    </div>
  );
}

/** One day: free kits, the tests starting (pickups) and the kits coming back (drop-offs). */
export function AvailabilityCard({
  day,
  today,
  signingBookingId = null,
  onSignAgreement,
  canSign = true,
}: {
  day: AvailabilityDay;
  today: string;
  /** The user's role may send agreement forms. */
  canSign?: boolean;
  signingBookingId?: number | null;
  onSignAgreement: (pickup: Pickup) => void;
}) {
  // Every pickup of the day can be reached: the rest of the list opens in place.
  const [allPickups, setAllPickups] = useState(false);
  // The rest of the lists is drawn for paper only while printing (lib/usePrinting.ts).
  const printing = usePrinting();
  const pickups = visibleItems(day.pickups, allPickups ? day.pickups.length : undefined);
  const dropoffs = visibleItems(day.dropoffs);
  const titleId = `availability-${day.date}`;
  const pickupListId = `pickups-${day.date}`;
  return (
    <Card aria-labelledby={titleId} role="region" className="flex flex-col" data-print-record>
      <CardHeader className="flex-row items-start justify-between gap-3 pb-3">
        <div>
          <CardTitle id={titleId}>{day.label}</CardTitle>
          <p className="text-xs text-slate-600">{formatDate(day.date)}</p>
        </div>
        <span
          className={cn(
            'inline-flex items-center gap-1 rounded-full px-2.5 py-1 text-xs font-semibold whitespace-nowrap',
            day.availableUnits > 0 ? 'bg-green-50 text-green-800' : 'bg-red-50 text-red-800',
          )}
        >
          <PackageCheck className="size-3.5" aria-hidden />
          {messages.availability.availableUnits(day.availableUnits)}
        </span>
      </CardHeader>
      <CardContent className="grid gap-4">
        <Section
          title={messages.availability.pickups}
          icon={<ArrowUpFromLine className="size-3.5" aria-hidden />}
          empty={messages.emptyStates.noPickups}
          count={day.pickups.length}
        >
          <ul id={pickupListId} className="grid gap-0.5">
            {pickups.shown.map((pickup) => (
              <PickupRow
                key={pickup.id}
                pickup={pickup}
                signable={canSign && canSignAgreement(pickup, day.date, today)}
                signing={signingBookingId === pickup.id}
                onSign={onSignAgreement}
              />
            ))}
          </ul>
          {/* On paper the day's list is complete: the pickups behind "+N more" print too. */}
          {printing && !allPickups && pickups.hidden > 0 && (
            <ul className="hidden gap-0.5 print:grid" data-print-only>
              {day.pickups.slice(pickups.shown.length).map((pickup) => (
                <PickupRow
                  key={pickup.id}
                  pickup={pickup}
                  signable={false}
                  signing={false}
                  onSign={onSignAgreement}
                />
              ))}
            </ul>
          )}
          {(pickups.hidden > 0 || allPickups) && day.pickups.length > AVAILABILITY_CARD_ITEMS && (
            <MoreToggle
              expanded={allPickups}
              hidden={pickups.hidden}
              controls={pickupListId}
              onToggle={() => setAllPickups((shown) => !shown)}
            />
          )}
        </Section>
        <Section
          title={messages.availability.returns}
          icon={<ArrowDownToLine className="size-3.5" aria-hidden />}
          empty={messages.emptyStates.noReturns}
          count={day.dropoffs.length}
        >
          <ul className="grid gap-0.5">
            {dropoffs.shown.map((dropoff: Dropoff) => (
              <DropoffRow key={dropoff.id} dropoff={dropoff} />
            ))}
          </ul>
          {dropoffs.hidden > 0 && (
            <>
              <div className="print:hidden">
                <MoreText>{messages.availability.moreReturns(dropoffs.hidden)}</MoreText>
              </div>
              {printing && (
                <ul className="hidden gap-0.5 print:grid" data-print-only>
                  {day.dropoffs.slice(dropoffs.shown.length).map((dropoff: Dropoff) => (
                    <DropoffRow key={dropoff.id} dropoff={dropoff} />
                  ))}
                </ul>
              )}
            </>
          )}
        </Section>
      </CardContent>
    </Card>
  );
}

/** The first days of the daily availability, one card each; stacked on small screens. */
export function AvailabilityCards({
  days,
  today,
  loading = false,
  signingBookingId = null,
  onSignAgreement,
  canSign = true,
}: {
  days: AvailabilityDay[];
  today: string;
  canSign?: boolean;
  loading?: boolean;
  signingBookingId?: number | null;
  onSignAgreement: (pickup: Pickup) => void;
}) {
  if (loading) {
    return (
      <div className="grid gap-4 md:grid-cols-3" aria-busy="true">
        {PLACEHOLDER_KEYS.map((key) => (
          <Card key={key} className="h-56 animate-pulse bg-slate-100" />
        ))}
      </div>
    );
  }
  if (days.length === 0) {
    return (
      <Card>
        <CardContent className="py-10 text-center text-sm text-slate-600">
          {messages.emptyStates.noAvailabilityData}
        </CardContent>
      </Card>
    );
  }
  return (
    <div className="grid gap-4 md:grid-cols-3 print:block" data-print-pages>
      {days.slice(0, AVAILABILITY_CARD_DAYS).map((day) => (
        <AvailabilityCard
          key={day.date}
          day={day}
          today={today}
          signingBookingId={signingBookingId}
          onSignAgreement={onSignAgreement}
          canSign={canSign}
        />
      ))}
    </div>
  );
}
