import {
  formatDate,
  formatReturnDate,
  GENDER_LABELS,
  messages,
  type Patient,
  patientMessages,
  searchResultUrl,
} from '@wellrest/core';
import { CalendarDays, Pencil, X } from 'lucide-react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { EmptyState, ErrorState } from '@/components/QueryState';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { PageSpinner, Spinner } from '@/components/ui/spinner';
import { useReturnFocus } from '@/components/ui/useReturnFocus';
import { StatusBadge } from '../bookings/StatusBadge';
import { PatientSubmissions } from '../forms/PatientSubmissions';
import { GhlPatientIssues } from '../ghl/GhlSyncReport';
import { PANEL_BOOKINGS_LIMIT, usePatient, usePatientBookings } from './queries';

/**
 * The patient panel: a sheet on the right with the whole record and the patient's bookings.
 * Opened by a row of the table or by a `#patient-{id}` link from anywhere in the console.
 */
export function PatientPanel({
  patientId,
  onClose,
  onEdit,
  showGhl = false,
}: {
  patientId: number | null;
  onClose: () => void;
  /** Present when the user may edit patients. */
  onEdit?: (patient: Patient) => void;
  /** Whether to show the patient's GoHighLevel rejection or conflicts (to those who sync). */
  showGhl?: boolean;
}) {
  const patient = usePatient(patientId);
  const open = patientId !== null;
  const record = patient.data;
  const returnFocus = useReturnFocus({});

  return (
    <DialogPrimitive.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-(--overlay) print:hidden data-[state=open]:animate-fade-in motion-reduce:animate-none" />
        <DialogPrimitive.Content
          className="fixed inset-y-0 right-0 z-50 flex h-full w-full max-w-xl flex-col bg-white shadow-xl data-[state=open]:animate-fade-in motion-reduce:animate-none"
          aria-describedby={undefined}
          {...returnFocus}
        >
          <div className="flex items-start justify-between gap-3 border-b border-slate-200 px-5 py-4">
            <div className="min-w-0">
              <DialogPrimitive.Title className="text-lg font-semibold wrap-break-word text-slate-900">
                {record ? record.name || messages.labels.unknownPatient : 'Patient'}
              </DialogPrimitive.Title>
              {record && (
                <p className="mt-0.5 flex flex-wrap items-center gap-2 text-sm text-slate-600">
                  <span>Patient #{record.id}</span>
                  <Badge tone="neutral">{record.leadSource}</Badge>
                </p>
              )}
            </div>
            <div className="flex shrink-0 items-center gap-1">
              {record && onEdit && (
                <Button variant="outline" size="sm" onClick={() => onEdit(record)}>
                  <Pencil aria-hidden />
                  {patientMessages.editPatient}
                </Button>
              )}
              <DialogPrimitive.Close className="rounded-md p-1.5 text-slate-500 transition-colors hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-accent-600">
                <X className="size-4" aria-hidden />
                <span className="sr-only">Close</span>
              </DialogPrimitive.Close>
            </div>
          </div>
          <div className="flex-1 overflow-y-auto px-5 py-5">
            {patient.isPending ? (
              <PageSpinner label={messages.common.loading} />
            ) : patient.isError ? (
              <ErrorState error={patient.error} onRetry={() => void patient.refetch()} />
            ) : record ? (
              <div className="grid gap-6">
                {showGhl && <GhlPatientIssues patientId={record.id} />}
                <PatientDetails patient={record} />
              </div>
            ) : null}
          </div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

function PatientDetails({ patient }: { patient: Patient }) {
  return (
    <div className="grid gap-6">
      <Section title="Contact">
        <Item label="Email">
          <a className="break-all text-accent-700 hover:underline" href={`mailto:${patient.email}`}>
            {patient.email}
          </a>
        </Item>
        <Item label="Phone">
          <a className="text-accent-700 hover:underline" href={`tel:${patient.phone}`}>
            {patient.phone}
          </a>
        </Item>
        <Item label="Date of birth">{patient.dateOfBirth ? formatDate(patient.dateOfBirth) : null}</Item>
        <Item label="Gender">{patient.gender ? GENDER_LABELS[patient.gender] : null}</Item>
        <Item label="Address" wide>
          {addressOf(patient)}
        </Item>
        <Item label="Emergency contact">{patient.emergencyContact}</Item>
        <Item label="Emergency phone">{patient.emergencyPhone}</Item>
      </Section>
      <Section title="Insurance">
        <Item label="Provider">{patient.insuranceProvider}</Item>
        <Item label="Policy number">{patient.insurancePolicyNumber}</Item>
      </Section>
      <Section title="Medical">
        <Item label="Medical history" wide>
          {patient.medicalHistory}
        </Item>
        <Item label="Medications" wide>
          {patient.medications}
        </Item>
      </Section>
      <Section title="Referral and source">
        <Item label="Referring physician">{patient.referringPhysician}</Item>
        <Item label="Lead source">{patient.leadSource}</Item>
        <Item label="GHL contact ID">{patient.ghlId}</Item>
      </Section>
      <PatientBookings patientId={patient.id} />
      <PatientSubmissions patientId={patient.id} />
    </div>
  );
}

function addressOf(patient: Patient): string | null {
  const place = [patient.city, [patient.state, patient.zipCode].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  const lines = [patient.address, place].filter(Boolean);
  return lines.length > 0 ? lines.join('\n') : null;
}

function PatientBookings({ patientId }: { patientId: number }) {
  const bookings = usePatientBookings(patientId);
  return (
    <section aria-labelledby={`patient-${patientId}-bookings`}>
      <h3
        id={`patient-${patientId}-bookings`}
        className="mb-3 flex items-center gap-2 text-xs font-semibold tracking-wide text-slate-500 uppercase"
      >
        {patientMessages.bookings}
        {bookings.isFetching && <Spinner className="size-3" label={messages.common.loading} />}
      </h3>
      {bookings.isPending ? (
        <p className="text-sm text-slate-600">{messages.common.loading}</p>
      ) : bookings.isError ? (
        <ErrorState error={bookings.error} onRetry={() => void bookings.refetch()} />
      ) : bookings.data.rows.length === 0 ? (
        <EmptyState
          icon={<CalendarDays className="size-5" aria-hidden />}
          title={patientMessages.noBookings}
        />
      ) : (
        <>
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
            {bookings.data.rows.map((booking) => (
              <li key={booking.id}>
                <Link
                  href={searchResultUrl('booking', booking.id)}
                  className="flex flex-wrap items-center justify-between gap-2 px-3 py-2.5 text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-accent-600"
                >
                  <span className="min-w-0">
                    <span className="block font-medium text-slate-900">
                      {formatDate(booking.startDate)} · {booking.testType} · {booking.kitType}
                    </span>
                    <span className="block text-xs text-slate-600">
                      Return {formatReturnDate(booking.returnDate)}
                      {booking.kitLabel ? ` · ${booking.kitLabel}` : ''}
                    </span>
                  </span>
                  <StatusBadge status={booking.status} />
                </Link>
              </li>
            ))}
          </ul>
          {bookings.data.total !== null && bookings.data.total > PANEL_BOOKINGS_LIMIT && (
            <p className="mt-2 text-xs text-slate-600">
              Showing the latest {PANEL_BOOKINGS_LIMIT} of {bookings.data.total} bookings.
            </p>
          )}
        </>
      )}
    </section>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section>
      <h3 className="mb-3 text-xs font-semibold tracking-wide text-slate-500 uppercase">{title}</h3>
      <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2">{children}</dl>
    </section>
  );
}

function Item({ label, wide, children }: { label: string; wide?: boolean; children: ReactNode }) {
  const empty = children === null || children === undefined || children === '';
  return (
    <div className={wide ? 'sm:col-span-2' : undefined}>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className={empty ? 'text-sm text-slate-500 italic' : 'text-sm whitespace-pre-line text-slate-900'}>
        {empty ? patientMessages.notRecorded : children}
      </dd>
    </div>
  );
}
