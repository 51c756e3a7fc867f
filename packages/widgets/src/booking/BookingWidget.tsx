import { useEffect, useState } from 'react';
import { ChoiceField, FieldError, FormShell, TextField } from '../shared/FormKit';
import { CalendarIcon } from '../shared/icons';
import { callPublicApi } from '../shared/publicApi';
import { WIDGET_TAGS } from '../shared/tags';
import { useWidgetForm } from '../shared/useWidgetForm';
import { checks, fieldMessages, required } from '../shared/validate';
import { WidgetCard } from '../shared/WidgetCard';
import type { WidgetProps } from '../shared/widgetProps';

export const bookingCopy = {
  title: 'Book a home sleep test',
  description:
    'Choose a 2-day or 3-day test and a start date that suits you. We’ll confirm your booking and have your kit ready to pick up.',
  formLabel: 'Home sleep test booking',
  kitType: 'Kit type',
  testType: 'Test length',
  testTypes: { '2-day': '2 nights', '3-day': '3 nights' },
  startDate: 'Start date',
  chooseKitFirst: 'Choose a kit type to see the dates we have.',
  loadingDates: 'Checking available dates…',
  noDates: 'No start dates are free in the next four weeks. Please call us to book.',
  datesError: 'We couldn’t load the available dates.',
  levels: { available: 'Available', limited: 'Few left', none: 'Full' },
  notStartDay: 'Not a start day',
  contact: 'Your details',
  name: 'Full name',
  email: 'Email',
  phone: 'Phone',
  dateOfBirth: 'Date of birth',
  notes: 'Anything we should know?',
  submit: 'Request booking',
  successTitle: 'Thank you — your booking request is in.',
  successBody: 'We’ll contact you to confirm the dates and explain how to pick up your kit.',
} as const;

/** Mirrors core's KIT_TYPES (a test checks they agree); written here to keep the script small. */
export const BOOKING_KIT_TYPES = ['Somfit', 'Z-Machine', 'SleepView'] as const;
const TEST_TYPES = ['2-day', '3-day'] as const;
const AVAILABILITY_DAYS = 28;

type Level = 'available' | 'limited' | 'none';
interface AvailabilityDay {
  date: string;
  level: Level;
  validStart: boolean;
}

type DatesState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'loaded'; days: AvailabilityDay[] }
  | { status: 'failed'; message: string };

/** Today's calendar date where the visitor is, `YYYY-MM-DD`. */
function localToday(now = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

const dayFormat = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

function dayText(date: string): string {
  return dayFormat.format(new Date(`${date}T00:00:00Z`));
}

function useAvailability(props: WidgetProps, kitType: string, testType: string): DatesState {
  const [state, setState] = useState<DatesState>({ status: 'idle' });
  const { apiBase, embedKey } = props;
  useEffect(() => {
    if (!kitType) return;
    const controller = new AbortController();
    setState({ status: 'loading' });
    const query = new URLSearchParams({
      kitType,
      testType,
      from: localToday(),
      days: String(AVAILABILITY_DAYS),
    });
    callPublicApi<{ days: AvailabilityDay[] }>({
      apiBase,
      embedKey,
      path: `/api/public/availability?${query}`,
      signal: controller.signal,
    }).then((result) => {
      if (controller.signal.aborted) return;
      setState(
        result.ok
          ? { status: 'loaded', days: result.data.days ?? [] }
          : { status: 'failed', message: result.error },
      );
    });
    return () => controller.abort();
  }, [apiBase, embedKey, kitType, testType]);
  return state;
}

/** `<wellrest-booking>`: a patient books a home sleep test. */
export function BookingWidget(props: WidgetProps) {
  return (
    <WidgetCard
      {...props}
      widget={WIDGET_TAGS.booking}
      title={bookingCopy.title}
      description={bookingCopy.description}
      icon={<CalendarIcon />}
    >
      <BookingForm {...props} />
    </WidgetCard>
  );
}

function BookingForm(props: WidgetProps) {
  const form = useWidgetForm({
    widget: WIDGET_TAGS.booking,
    apiBase: props.apiBase,
    embedKey: props.embedKey,
    path: '/api/public/booking-requests',
    initial: {
      kitType: '',
      testType: '2-day',
      startDate: '',
      name: '',
      email: '',
      phone: '',
      dateOfBirth: '',
      notes: '',
    },
    rules: {
      kitType: required(fieldMessages.kitTypeRequired),
      startDate: required(fieldMessages.startDateRequired),
      name: required(fieldMessages.nameRequired),
      email: checks.email,
      phone: checks.phone,
      dateOfBirth: checks.optionalPastDate,
    },
  });
  const kitType = form.values.kitType ?? '';
  const testType = form.values.testType ?? '2-day';
  const dates = useAvailability(props, kitType, testType);

  // A start date chosen for another kit or length may no longer be offered.
  const startDate = form.values.startDate ?? '';
  useEffect(() => {
    if (!startDate || dates.status !== 'loaded') return;
    const day = dates.days.find((candidate) => candidate.date === startDate);
    if (!day?.validStart || day.level === 'none') form.setValue('startDate', '');
  }, [dates, startDate, form.setValue]);

  return (
    <FormShell
      form={form}
      label={bookingCopy.formLabel}
      submitLabel={bookingCopy.submit}
      successTitle={bookingCopy.successTitle}
      successBody={bookingCopy.successBody}
    >
      <ChoiceField
        form={form}
        name="kitType"
        legend={bookingCopy.kitType}
        options={BOOKING_KIT_TYPES.map((kit) => ({ value: kit, label: kit }))}
      />
      <ChoiceField
        form={form}
        name="testType"
        legend={bookingCopy.testType}
        options={TEST_TYPES.map((type) => ({ value: type, label: bookingCopy.testTypes[type] }))}
      />
      <StartDates form={form} dates={dates} />
      <fieldset className="wr-group">
        <legend className="wr-group-title">{bookingCopy.contact}</legend>
        <TextField form={form} name="name" label={bookingCopy.name} autoComplete="name" maxLength={200} />
        <div className="wr-row">
          <TextField form={form} name="email" label={bookingCopy.email} type="email" autoComplete="email" />
          <TextField form={form} name="phone" label={bookingCopy.phone} type="tel" autoComplete="tel" />
        </div>
        <TextField
          form={form}
          name="dateOfBirth"
          label={bookingCopy.dateOfBirth}
          type="date"
          autoComplete="bday"
          optional
        />
        <TextField form={form} name="notes" label={bookingCopy.notes} multiline optional maxLength={2000} />
      </fieldset>
    </FormShell>
  );
}

function StartDates({ form, dates }: { form: ReturnType<typeof useWidgetForm>; dates: DatesState }) {
  if (dates.status === 'loaded' && dates.days.length > 0) {
    const offered = dates.days.filter((day) => day.validStart);
    if (offered.some((day) => day.level !== 'none')) {
      return (
        <ChoiceField
          form={form}
          name="startDate"
          legend={bookingCopy.startDate}
          columns="dates"
          options={offered.map((day) => ({
            value: day.date,
            label: dayText(day.date),
            detail: bookingCopy.levels[day.level],
            disabled: day.level === 'none',
          }))}
        />
      );
    }
  }
  const note =
    dates.status === 'idle'
      ? bookingCopy.chooseKitFirst
      : dates.status === 'loading'
        ? bookingCopy.loadingDates
        : dates.status === 'failed'
          ? `${bookingCopy.datesError} ${dates.message}`
          : bookingCopy.noDates;
  return (
    <div className="wr-fieldset" data-invalid={form.errors.startDate ? 'true' : undefined}>
      <p className="wr-label">{bookingCopy.startDate}</p>
      <p className="wr-note" role="status">
        {note}
      </p>
      <FieldError id="wr-startDate-error" message={form.errors.startDate} />
    </div>
  );
}
