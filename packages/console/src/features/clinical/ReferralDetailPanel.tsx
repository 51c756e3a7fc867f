import {
  clinicalMessages as cm,
  manualTransitions,
  messages,
  type ReferralDetail,
  type ReferralStatus,
  transitionNeedsReason,
} from '@wellrest/core';
import { Download, FileText, Stethoscope } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { ErrorState } from '@/components/QueryState';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet';
import { PageSpinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { BookingDialog } from '../bookings/BookingDialog';
import { AttachmentDrop } from './AttachmentDrop';
import { BlobPreview } from './BlobPreview';
import { dateTimeText, ReferralStatusBadge, SeverityBadge, SlaChip, UrgencyBadge } from './badges';
import {
  attachmentUrl,
  reportUrl,
  uploadAttachment,
  useAbility,
  useLinkBooking,
  useLinkPatient,
  usePatientMatches,
  useReferral,
  useReferralStatus,
} from './clinicalApi';

/** The referral opened from a list: a side panel with everything about it and what staff can do. */
export function ReferralDetailSheet({ id, onClose }: { id: number | null; onClose: () => void }) {
  return (
    <Sheet open={id !== null} onOpenChange={(open) => !open && onClose()}>
      {/* The loaded referral's title names the panel; until then (loading, failed) this label does. */}
      <SheetContent
        aria-label={id === null ? undefined : `Referral #${id}`}
        className="right-0 left-auto w-full max-w-full overflow-y-auto p-4 pt-10 sm:max-w-xl"
      >
        {id !== null && <ReferralDetailPanel id={id} inSheet />}
      </SheetContent>
    </Sheet>
  );
}

export function ReferralDetailPanel({ id, inSheet = false }: { id: number; inSheet?: boolean }) {
  const referral = useReferral(id);
  if (referral.isPending) return <PageSpinner label={messages.common.loading} />;
  if (referral.isError) return <ErrorState error={referral.error} onRetry={() => void referral.refetch()} />;
  return <ReferralDetailView referral={referral.data} inSheet={inSheet} />;
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="grid gap-2 border-t border-slate-200 pt-4">
      <h3 className="text-sm font-semibold text-slate-900">{title}</h3>
      {children}
    </section>
  );
}

function Row({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[9rem_1fr] gap-2 text-sm">
      <dt className="text-slate-600">{label}</dt>
      <dd className="min-w-0 break-words text-slate-900">{value || '—'}</dd>
    </div>
  );
}

/** A referral's details; inside the side panel its title names the panel (a dialog). */
export function ReferralDetailView({
  referral,
  inSheet = false,
}: {
  referral: ReferralDetail;
  inSheet?: boolean;
}) {
  const Title = inSheet ? SheetTitle : 'h2';
  const Description = inSheet ? SheetDescription : 'p';
  const { ability } = useAbility();
  const canUpdate = ability.can('update', 'Referral');
  const canReadTest = ability.can('read', 'Interpretation');
  const f = cm.referralFields;
  return (
    <div className="grid gap-4 p-1" data-testid="referral-detail">
      <div className="grid gap-2">
        <Title className="text-lg font-semibold text-slate-900">
          {referral.patientName || cm.patientNotLinked}
        </Title>
        <Description className="text-sm text-slate-600">
          {referral.physicianName} · {dateTimeText(referral.createdAt)}
        </Description>
        <div className="flex flex-wrap gap-1">
          <ReferralStatusBadge status={referral.status} />
          <UrgencyBadge urgency={referral.urgency} />
          <SlaChip state={referral.slaState} />
        </div>
      </div>

      {canUpdate && <StatusActions referral={referral} />}
      {canUpdate && referral.patientId === null && <PatientReview referral={referral} />}

      <dl className="grid gap-1">
        <Row label={f.reason} value={referral.reason} />
        <Row label={f.icd10Codes} value={referral.icd10Codes.join(', ')} />
        <Row label={f.preferredTestType} value={referral.preferredTestType} />
        <Row label={f.preferredKitType} value={referral.preferredKitType} />
        <Row label={f.insurance} value={referral.insurance} />
        <Row label={f.notes} value={referral.notes} />
        {referral.statusReason && <Row label={cm.reasonForStatus} value={referral.statusReason} />}
      </dl>

      {referral.submittedPhysician && (
        <Section title={cm.submittedPhysician}>
          <p className="text-xs text-slate-600">{cm.submittedPhysicianHint}</p>
          <dl className="grid gap-1">
            <Row label={cm.physicianFields.name} value={referral.submittedPhysician.name} />
            <Row label={cm.physicianFields.npi} value={referral.submittedPhysician.npi} />
            <Row label={cm.physicianFields.practice} value={referral.submittedPhysician.practice} />
            <Row label={cm.physicianFields.email} value={referral.submittedPhysician.email} />
            <Row label={cm.physicianFields.phone} value={referral.submittedPhysician.phone} />
          </dl>
          <Link className="text-sm text-accent-800 underline" href={`/physicians/${referral.physicianId}`}>
            {referral.physicianName}
          </Link>
        </Section>
      )}

      {referral.sla.length > 0 && (
        <Section title={f.sla}>
          <ul className="grid gap-1 text-sm">
            {referral.sla.map((clock) => (
              <li key={clock.definitionId} className="flex flex-wrap items-center justify-between gap-2">
                <span>{clock.name}</span>
                <span className="flex items-center gap-2 text-xs text-slate-600">
                  {cm.elapsed} {clock.elapsedHours} / {clock.targetHours} h
                  <SlaChip state={clock.state} />
                </span>
              </li>
            ))}
          </ul>
        </Section>
      )}

      <Section title={cm.linkedBooking}>
        {referral.booking ? (
          <p className="text-sm text-slate-800">
            #{referral.booking.id} · {referral.booking.kitType} · {referral.booking.testType} ·{' '}
            {referral.booking.startDate} – {referral.booking.endDate} · {referral.booking.status}
          </p>
        ) : (
          <p className="text-sm text-slate-600">{cm.noBooking}</p>
        )}
      </Section>

      <Section title={cm.interpretation}>
        {referral.interpretation ? (
          <div className="grid gap-2 text-sm">
            <p>
              {cm.assignedTo}: {referral.interpretation.readerName ?? cm.unassigned}
            </p>
            {referral.interpretation.severity && (
              <p className="flex items-center gap-2">
                {cm.ahi}: {referral.interpretation.ahi}{' '}
                <SeverityBadge severity={referral.interpretation.severity} />
              </p>
            )}
            {referral.interpretation.signedAt && (
              <p className="text-slate-700">
                {cm.signedBy(
                  referral.interpretation.signedByName ?? '',
                  dateTimeText(referral.interpretation.signedAt),
                )}
              </p>
            )}
          </div>
        ) : (
          <p className="text-sm text-slate-600">{cm.unassigned}</p>
        )}
        <div className="flex flex-wrap gap-2">
          {referral.reportReady && (
            <Button asChild variant="outline" size="sm">
              <a href={reportUrl(referral.id)} download>
                <Download aria-hidden />
                {cm.downloadReport}
              </a>
            </Button>
          )}
          {canReadTest && referral.status === 'tested' && (
            <Button asChild variant="outline" size="sm">
              <Link href={`/medical-director/test-assignment/${referral.id}`}>
                <Stethoscope aria-hidden />
                {cm.testAssignment}
              </Link>
            </Button>
          )}
        </div>
      </Section>

      <Attachments referral={referral} />

      <Section title={cm.timeline}>
        <ol className="grid gap-2 border-l border-slate-200 pl-4">
          {referral.events.map((event) => (
            <li key={event.id} className="text-sm">
              <span className="font-medium text-slate-900">{cm.referralStatus[event.toStatus]}</span>
              <span className="text-slate-600">
                {' '}
                · {dateTimeText(event.at)}
                {event.actor ? ` · ${event.actor}` : ''}
              </span>
              {event.note && <p className="text-slate-700">{event.note}</p>}
            </li>
          ))}
        </ol>
      </Section>
    </div>
  );
}

function StatusActions({ referral }: { referral: ReferralDetail }) {
  const change = useReferralStatus(referral.id);
  const link = useLinkBooking(referral.id);
  const [pending, setPending] = useState<ReferralStatus | null>(null);
  const [note, setNote] = useState('');
  const [booking, setBooking] = useState(false);
  const options = manualTransitions(referral.status);
  const canSchedule =
    referral.patientId !== null && (referral.status === 'received' || referral.status === 'contacted');

  async function apply(status: ReferralStatus, text: string) {
    try {
      await change.mutateAsync({ status, note: text });
      toast({ title: cm.statusChanged, variant: 'success' });
      setPending(null);
      setNote('');
    } catch (error) {
      toast({ title: cm.changeStatus, description: errorMessage(error, ''), variant: 'destructive' });
    }
  }

  if (options.length === 0 && !canSchedule) return null;
  return (
    <div className="grid gap-2 rounded-md bg-slate-50 p-3">
      <div className="flex flex-wrap gap-2">
        {canSchedule && (
          <Button size="sm" onClick={() => setBooking(true)}>
            {cm.scheduleTest}
          </Button>
        )}
        {options.map((status) => (
          <Button
            key={status}
            size="sm"
            variant={status === 'cancelled' || status === 'declined' ? 'outline' : 'secondary'}
            disabled={change.isPending}
            onClick={() => (transitionNeedsReason(status) ? setPending(status) : void apply(status, ''))}
          >
            {cm.referralStatus[status]}
          </Button>
        ))}
      </div>
      {pending && (
        <form
          className="grid gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            void apply(pending, note);
          }}
        >
          <Label htmlFor="status-note">{cm.reasonForStatus}</Label>
          <Input id="status-note" value={note} onChange={(e) => setNote(e.target.value)} required autoFocus />
          <div className="flex gap-2">
            <Button size="sm" type="submit" disabled={change.isPending || note.trim() === ''}>
              {cm.referralStatus[pending]}
            </Button>
            <Button size="sm" variant="ghost" type="button" onClick={() => setPending(null)}>
              {cm.close}
            </Button>
          </div>
        </form>
      )}
      {canSchedule && referral.patientId !== null && (
        <BookingDialog
          open={booking}
          onOpenChange={setBooking}
          patientId={referral.patientId}
          defaultKitType={referral.preferredKitType ?? undefined}
          defaultTestType={referral.preferredTestType ?? undefined}
          onBooked={(created) => {
            link.mutate(created.id, {
              onSuccess: () => toast({ title: cm.bookingLinked, variant: 'success' }),
              onError: (error) =>
                toast({
                  title: cm.linkBooking,
                  description: errorMessage(error, ''),
                  variant: 'destructive',
                }),
            });
          }}
        />
      )}
    </div>
  );
}

function PatientReview({ referral }: { referral: ReferralDetail }) {
  const matches = usePatientMatches(referral.id, true);
  const link = useLinkPatient(referral.id);
  async function run(input: { patientId: number } | { createFromSubmission: true }) {
    try {
      await link.mutateAsync(input);
      toast({ title: cm.patientLinked, variant: 'success' });
    } catch (error) {
      toast({ title: cm.needsReview, description: errorMessage(error, ''), variant: 'destructive' });
    }
  }
  return (
    <Section title={cm.submittedPatient}>
      <p className="text-xs text-slate-600">{cm.submittedPatientHint}</p>
      {referral.submittedPatient && (
        <dl className="grid gap-1">
          <Row label={cm.referralFields.patient} value={referral.submittedPatient.name} />
          <Row label={cm.physicianFields.email} value={referral.submittedPatient.email} />
          <Row label={cm.physicianFields.phone} value={referral.submittedPatient.phone} />
          <Row label={cm.patientFields.dateOfBirth} value={referral.submittedPatient.dateOfBirth} />
        </dl>
      )}
      <h4 className="text-sm font-medium text-slate-800">{cm.possibleMatches}</h4>
      {matches.isPending ? (
        <PageSpinner label={messages.common.loading} />
      ) : matches.isError ? (
        <ErrorState error={matches.error} onRetry={() => void matches.refetch()} />
      ) : matches.data.length === 0 ? (
        <p className="text-sm text-slate-600">{cm.noPossibleMatches}</p>
      ) : (
        <ul className="grid gap-2">
          {matches.data.map((m) => (
            <li
              key={m.id}
              className="flex flex-wrap items-center justify-between gap-2 rounded border border-slate-200 p-2 text-sm"
            >
              <span>
                {m.name} · {m.email} · {m.phone} {m.dateOfBirth ? `· ${m.dateOfBirth}` : ''}
              </span>
              <Button
                size="sm"
                variant="outline"
                disabled={link.isPending}
                onClick={() => void run({ patientId: m.id })}
              >
                {cm.linkThisPatient}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div>
        <Button size="sm" disabled={link.isPending} onClick={() => void run({ createFromSubmission: true })}>
          {cm.createPatientFromReferral}
        </Button>
      </div>
    </Section>
  );
}

function Attachments({ referral }: { referral: ReferralDetail }) {
  const [preview, setPreview] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const { ability } = useAbility();
  const reload = useReferral(referral.id);
  const shown = referral.attachments.find((a) => a.id === preview);

  async function add(files: File[]) {
    setUploading(true);
    try {
      for (const file of files) await uploadAttachment(referral.id, file);
      toast({ title: cm.attachmentUploaded, variant: 'success' });
    } catch (error) {
      toast({ title: cm.attachments, description: errorMessage(error, ''), variant: 'destructive' });
    } finally {
      setUploading(false);
      void reload.refetch();
    }
  }

  return (
    <Section title={cm.attachments}>
      {referral.attachments.length === 0 ? (
        <p className="text-sm text-slate-600">{cm.noAttachments}</p>
      ) : (
        <ul className="grid gap-1">
          {referral.attachments.map((a) => (
            <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
              <span className="flex min-w-0 items-center gap-2">
                <FileText className="size-4 shrink-0 text-slate-500" aria-hidden />
                <span className="truncate">{a.filename}</span>
                <span className="text-xs text-slate-500">{Math.ceil(a.size / 1024)} KB</span>
              </span>
              <span className="flex gap-1">
                <Button size="sm" variant="ghost" onClick={() => setPreview(preview === a.id ? null : a.id)}>
                  {cm.preview}
                </Button>
                <Button asChild size="sm" variant="ghost">
                  <a href={attachmentUrl(referral.id, a.id)} download={a.filename}>
                    {cm.download}
                  </a>
                </Button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {shown && (
        <BlobPreview
          url={attachmentUrl(referral.id, shown.id)}
          title={shown.filename}
          contentType={shown.contentType}
        />
      )}
      {ability.can('read', 'Referral') && (
        <AttachmentDrop disabled={uploading} onFiles={(files) => void add(files)} />
      )}
    </Section>
  );
}
