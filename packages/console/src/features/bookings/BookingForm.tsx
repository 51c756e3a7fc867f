import {
  type Booking,
  DEFAULT_LEAD_SOURCE,
  DEFAULT_TEST_TYPE,
  formatDate,
  GENDERS,
  KIT_TYPES,
  type Kit,
  type KitType,
  LEAD_SOURCES,
  messages,
  type Patient,
  TEST_TYPES,
  type TestType,
  testDates,
  validateBookingSubmission,
} from '@wellrest/core';
import { CalendarCheck, Lightbulb } from 'lucide-react';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { DialogFooter } from '@/components/ui/dialog';
import { Input, NativeSelect, Textarea } from '@/components/ui/input';
import { FieldMessage, Label } from '@/components/ui/label';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/components/ui/use-toast';
import { DuplicatePatientWarning } from '../patients/DuplicatePatientWarning';
import {
  availableTypes,
  freeKitsByDate,
  freeKitsPerType,
  isSelectableStartDate,
  monthOf,
} from './bookingCalendar';
import { PatientCombobox } from './PatientCombobox';
import { StartDatePicker } from './StartDatePicker';

export type PatientTab = 'existing' | 'new';

/** The new-patient fields the dialog asks for: name, email and phone, then optional details. */
export interface NewPatientFields {
  name: string;
  email: string;
  phone: string;
  dateOfBirth: string;
  gender: string;
  address: string;
  city: string;
  state: string;
  zipCode: string;
  insuranceProvider: string;
  insurancePolicyNumber: string;
  referringPhysician: string;
  leadSource: string;
}

const EMPTY_PATIENT: NewPatientFields = {
  name: '',
  email: '',
  phone: '',
  dateOfBirth: '',
  gender: '',
  address: '',
  city: '',
  state: '',
  zipCode: '',
  insuranceProvider: '',
  insurancePolicyNumber: '',
  referringPhysician: '',
  leadSource: DEFAULT_LEAD_SOURCE,
};

/** A form that passed validation: what the dialog sends. */
export interface BookingSubmission {
  tab: PatientTab;
  patientId: number | null;
  newPatient: NewPatientFields;
  testType: TestType;
  kitType: KitType;
  startDate: string;
  notes: string;
}

export interface BookingFormDefaults {
  patientId?: number | null;
  startDate?: string | null;
  kitType?: KitType | null;
  testType?: TestType;
}

const TEST_TYPE_LABELS: Record<TestType, string> = { '2-day': '2-day test', '3-day': '3-day test' };

/**
 * The body of the 'Create New Booking' dialog: the patient (existing or new), then the booking
 * details. It computes availability from the kits and bookings it is given, runs the spec's
 * submit checks, and hands a valid form to `onSubmit`.
 */
export function BookingForm({
  patients,
  kits,
  bookings,
  today,
  defaults = {},
  showDateTip = false,
  loading = false,
  submitting = false,
  onSubmit,
  onCancel,
}: {
  patients: Patient[];
  kits: Kit[];
  bookings: Booking[];
  today: string;
  defaults?: BookingFormDefaults;
  showDateTip?: boolean;
  loading?: boolean;
  submitting?: boolean;
  onSubmit: (submission: BookingSubmission) => void;
  onCancel: () => void;
}) {
  const ids = useId();
  const [tab, setTab] = useState<PatientTab>('existing');
  const [patientId, setPatientId] = useState<number | null>(defaults.patientId ?? null);
  const [newPatient, setNewPatient] = useState<NewPatientFields>(EMPTY_PATIENT);
  const [testType, setTestType] = useState<TestType>(defaults.testType ?? DEFAULT_TEST_TYPE);
  const [kitType, setKitType] = useState<KitType | null>(defaults.kitType ?? null);
  const [startDate, setStartDate] = useState<string | null>(defaults.startDate ?? null);
  const [notes, setNotes] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [calendarMonth, setCalendarMonth] = useState(() => monthOf(defaults.startDate ?? today));

  const counts = useMemo(
    () => freeKitsPerType(kits, bookings, startDate, testType),
    [kits, bookings, startDate, testType],
  );
  const freeByDate = useMemo(
    () => freeKitsByDate(calendarMonth, kits, bookings, testType, kitType),
    [calendarMonth, kits, bookings, testType, kitType],
  );

  /** Start date or duration changed: a chosen kit type with no free kit left is cleared. */
  function afterWindowChange(nextDate: string | null, nextTestType: TestType) {
    if (!kitType || !nextDate) return;
    const nextCounts = freeKitsPerType(kits, bookings, nextDate, nextTestType);
    if (nextCounts[kitType] > 0) return;
    setKitType(null);
    toast({ variant: 'destructive', ...messages.booking.kitTypeUnavailableToast(kitType) });
  }

  function changeStartDate(date: string) {
    setStartDate(date);
    setError(null);
    afterWindowChange(date, testType);
  }

  function changeTestType(next: TestType) {
    setTestType(next);
    setError(null);
    const keptDate = startDate && isSelectableStartDate(startDate, today, next) ? startDate : null;
    if (keptDate !== startDate) setStartDate(keptDate);
    afterWindowChange(keptDate, next);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = validateBookingSubmission(
      { tab, patientId, newPatient, testType, kitType, startDate },
      availableTypes(counts),
    );
    setError(problem);
    if (problem || !kitType || !startDate) {
      if (problem) toast({ variant: 'destructive', title: messages.common.error, description: problem });
      return;
    }
    onSubmit({ tab, patientId, newPatient, testType, kitType, startDate, notes });
  }

  const patientField = (key: keyof NewPatientFields) => ({
    id: `${ids}-${key}`,
    value: newPatient[key],
    disabled: submitting,
    onChange: (event: { target: { value: string } }) => {
      setNewPatient({ ...newPatient, [key]: event.target.value });
      setError(null);
    },
  });

  const returnDate = startDate ? testDates(startDate, testType).returnDate : null;

  return (
    <form
      noValidate
      onSubmit={submit}
      className="grid gap-5"
      aria-describedby={error ? `${ids}-error` : undefined}
    >
      <Tabs
        value={tab}
        onValueChange={(value) => {
          setTab(value as PatientTab);
          setError(null);
        }}
      >
        <TabsList>
          <TabsTrigger value="existing">{messages.booking.existingPatientTab}</TabsTrigger>
          <TabsTrigger value="new">{messages.booking.newPatientTab}</TabsTrigger>
        </TabsList>
        <TabsContent value="existing" className="grid gap-2">
          <Label htmlFor={`${ids}-patient`}>Patient</Label>
          <PatientCombobox
            id={`${ids}-patient`}
            patients={patients}
            value={patientId}
            loading={loading}
            disabled={submitting}
            onChange={(id) => {
              setPatientId(id);
              setError(null);
            }}
          />
        </TabsContent>
        <TabsContent value="new" className="grid gap-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="grid gap-2 sm:col-span-2">
              <Label htmlFor={`${ids}-name`}>Full name *</Label>
              <Input {...patientField('name')} autoComplete="off" required />
            </div>
            <div className="grid gap-2">
              <Label htmlFor={`${ids}-email`}>Email *</Label>
              <Input {...patientField('email')} type="email" autoComplete="off" required />
            </div>
            <div className="grid gap-2">
              <Label htmlFor={`${ids}-phone`}>Phone *</Label>
              <Input {...patientField('phone')} type="tel" autoComplete="off" required />
            </div>
          </div>
          <DuplicatePatientWarning email={newPatient.email} phone={newPatient.phone} />
          <details className="group rounded-lg border border-slate-200 px-4 py-3">
            <summary className="cursor-pointer text-sm font-medium text-slate-800">
              More patient details (optional)
            </summary>
            <div className="mt-4 grid gap-4 sm:grid-cols-2">
              <div className="grid gap-2">
                <Label htmlFor={`${ids}-dateOfBirth`}>Date of birth</Label>
                <Input {...patientField('dateOfBirth')} type="date" max={today} />
              </div>
              <div className="grid gap-2">
                <Label htmlFor={`${ids}-gender`}>Gender</Label>
                <NativeSelect {...patientField('gender')}>
                  <option value="">Not given</option>
                  {GENDERS.map((gender) => (
                    <option key={gender} value={gender}>
                      {gender.replaceAll('-', ' ')}
                    </option>
                  ))}
                </NativeSelect>
              </div>
              <div className="grid gap-2 sm:col-span-2">
                <Label htmlFor={`${ids}-address`}>Address</Label>
                <Input {...patientField('address')} />
              </div>
              <div className="grid gap-2">
                <Label htmlFor={`${ids}-city`}>City</Label>
                <Input {...patientField('city')} />
              </div>
              <div className="grid grid-cols-2 gap-4">
                <div className="grid gap-2">
                  <Label htmlFor={`${ids}-state`}>State</Label>
                  <Input {...patientField('state')} />
                </div>
                <div className="grid gap-2">
                  <Label htmlFor={`${ids}-zipCode`}>ZIP code</Label>
                  <Input {...patientField('zipCode')} inputMode="numeric" />
                </div>
              </div>
              <div className="grid gap-2">
                <Label htmlFor={`${ids}-insuranceProvider`}>Insurance provider</Label>
                <Input {...patientField('insuranceProvider')} />
              </div>
              <div className="grid gap-2">
                <Label htmlFor={`${ids}-insurancePolicyNumber`}>Policy number</Label>
                <Input {...patientField('insurancePolicyNumber')} />
              </div>
              <div className="grid gap-2">
                <Label htmlFor={`${ids}-referringPhysician`}>Referring physician</Label>
                <Input {...patientField('referringPhysician')} />
              </div>
              <div className="grid gap-2">
                <Label htmlFor={`${ids}-leadSource`}>Lead source</Label>
                <NativeSelect {...patientField('leadSource')}>
                  {LEAD_SOURCES.map((source) => (
                    <option key={source} value={source}>
                      {source}
                    </option>
                  ))}
                </NativeSelect>
              </div>
            </div>
          </details>
        </TabsContent>
      </Tabs>

      <section aria-labelledby={`${ids}-details`} className="grid gap-4 border-t border-slate-200 pt-5">
        <h3 id={`${ids}-details`} className="text-sm font-semibold text-slate-900">
          {messages.booking.detailsSection}
        </h3>
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="grid content-start gap-2">
            <Label htmlFor={`${ids}-testType`}>{messages.booking.testDuration}</Label>
            <NativeSelect
              id={`${ids}-testType`}
              value={testType}
              disabled={submitting}
              onChange={(event) => changeTestType(event.target.value as TestType)}
            >
              {TEST_TYPES.map((type) => (
                <option key={type} value={type}>
                  {TEST_TYPE_LABELS[type]}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="grid content-start gap-2">
            <Label htmlFor={`${ids}-kitType`}>{messages.booking.kitType}</Label>
            <NativeSelect
              id={`${ids}-kitType`}
              value={kitType ?? ''}
              disabled={submitting}
              aria-describedby={`${ids}-kitType-hint`}
              onChange={(event) => {
                setKitType((event.target.value || null) as KitType | null);
                setError(null);
              }}
            >
              <option value="">Select a kit type</option>
              {KIT_TYPES.map((type) => (
                <option key={type} value={type}>
                  {startDate ? `${type} (${counts[type]} available)` : type}
                </option>
              ))}
            </NativeSelect>
            <FieldMessage id={`${ids}-kitType-hint`} tone="hint">
              {startDate ? `Free kits on ${formatDate(startDate)}` : 'Choose a start date to see free kits'}
            </FieldMessage>
          </div>
        </div>

        <div className="grid gap-2">
          <p id={`${ids}-startDate`} className="text-sm font-medium leading-none text-slate-800">
            {messages.booking.startDate}
            {startDate && <span className="font-normal text-slate-600"> — {formatDate(startDate)}</span>}
          </p>
          {showDateTip && (
            <Alert variant="info">
              <Lightbulb aria-hidden />
              <AlertDescription>{messages.booking.preselectedDateTip}</AlertDescription>
            </Alert>
          )}
          <StartDatePicker
            value={startDate}
            onChange={changeStartDate}
            onMonthChange={setCalendarMonth}
            today={today}
            testType={testType}
            freeKits={(date) => freeByDate.get(date) ?? 0}
            labelledBy={`${ids}-startDate`}
          />
          {returnDate && (
            <Alert variant="success">
              <CalendarCheck aria-hidden />
              <AlertDescription>{messages.booking.returnDateNotice(formatDate(returnDate))}</AlertDescription>
            </Alert>
          )}
        </div>

        <div className="grid gap-2">
          <Label htmlFor={`${ids}-notes`}>{messages.booking.notes}</Label>
          <Textarea
            id={`${ids}-notes`}
            value={notes}
            disabled={submitting}
            rows={3}
            onChange={(event) => setNotes(event.target.value)}
          />
        </div>
      </section>

      {error && (
        <p id={`${ids}-error`} role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}

      <DialogFooter>
        <Button variant="outline" onClick={onCancel} disabled={submitting}>
          {messages.common.cancel}
        </Button>
        <Button type="submit" disabled={submitting}>
          {submitting
            ? messages.booking.creating
            : tab === 'new'
              ? messages.booking.createWithPatientButton
              : messages.booking.createButton}
        </Button>
      </DialogFooter>
    </form>
  );
}
