import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { type StubReply, type StubRoutes, stubFetch } from '../../../../.storybook/fetchStub';
import { widgetCopy } from '../shared/copy';
import { fieldMessages, formMessages } from '../shared/validate';
import { BOOKING_KIT_TYPES, BookingWidget, bookingCopy } from './BookingWidget';

const API_BASE = 'https://wellrest.example';

/** The next 28 days from the widget's `from`: Monday to Thursday are start days, every third one is full. */
function availability({ url }: { url: URL }): StubReply {
  const from = new Date(`${url.searchParams.get('from')}T00:00:00Z`);
  const days = Array.from({ length: 28 }, (_, offset) => {
    const day = new Date(from.getTime() + offset * 86_400_000);
    const weekday = day.getUTCDay();
    return {
      date: day.toISOString().slice(0, 10),
      level: offset % 3 === 2 ? 'none' : offset % 3 === 1 ? 'limited' : 'available',
      validStart: weekday >= 1 && weekday <= 4,
    };
  });
  return { status: 200, body: { days } };
}

function routes(submit: StubReply): StubRoutes {
  return {
    '/api/public/diagnostics': { status: 200, body: { status: 'ok' }, delayMs: 200 },
    '/api/public/availability': availability,
    'POST /api/public/booking-requests': submit,
  };
}

/** Fills the form as a patient would: a kit, the first free start date, and contact details. */
async function fillBooking(canvasElement: HTMLElement) {
  const canvas = within(canvasElement);
  await userEvent.click(await canvas.findByRole('radio', { name: BOOKING_KIT_TYPES[0] }));
  const dates = await canvas.findAllByRole('radio', { name: new RegExp(bookingCopy.levels.available) });
  const firstFree = dates.find((radio) => !(radio as HTMLInputElement).disabled);
  if (firstFree) await userEvent.click(firstFree);
  await userEvent.type(canvas.getByLabelText(bookingCopy.name), 'Avery Sampleton');
  await userEvent.type(canvas.getByLabelText(bookingCopy.email), 'avery@example.test');
  await userEvent.type(canvas.getByLabelText(bookingCopy.phone), '(555) 555-0100');
}

async function submit(canvasElement: HTMLElement) {
  await userEvent.click(within(canvasElement).getByRole('button', { name: bookingCopy.submit }));
}

/** The booking form's states after the connection check: validation, sending, server errors, success. */
const meta = {
  title: 'Widgets/Booking/Form',
  component: BookingWidget,
  args: { apiBase: API_BASE, theme: 'light' },
} satisfies Meta<typeof BookingWidget>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Sent empty: every required field says what it needs, and the summary asks to correct them. */
export const ValidationErrors: Story = {
  beforeEach: stubFetch(routes({ status: 201, body: { requestId: 'req-demo' } })),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: bookingCopy.submit }));
    await expect(await canvas.findByText(fieldMessages.kitTypeRequired)).toBeVisible();
    await expect(canvas.getByText(fieldMessages.nameRequired)).toBeVisible();
    await expect(canvas.getByText(formMessages.fixErrors)).toBeVisible();
  },
};

/** Filled in and sent; the answer has not come back yet. */
export const Sending: Story = {
  beforeEach: stubFetch(routes({ network: 'pending' })),
  play: async ({ canvasElement }) => {
    await fillBooking(canvasElement);
    await submit(canvasElement);
    await expect(await within(canvasElement).findByText(widgetCopy.sending)).toBeVisible();
  },
};

/** The server refused one field: its message shows beside it and in the summary. */
export const ServerError: Story = {
  beforeEach: stubFetch(
    routes({
      status: 400,
      body: {
        error: formMessages.fixErrors,
        issues: [{ path: 'email', message: fieldMessages.emailInvalid }],
      },
    }),
  ),
  play: async ({ canvasElement }) => {
    await fillBooking(canvasElement);
    await submit(canvasElement);
    await expect(await within(canvasElement).findByText(fieldMessages.emailInvalid)).toBeVisible();
  },
};

/** The connection dropped while sending: the form stays filled in with the network message. */
export const NetworkError: Story = {
  beforeEach: stubFetch(routes({ network: 'error' })),
  play: async ({ canvasElement }) => {
    await fillBooking(canvasElement);
    await submit(canvasElement);
    await expect(await within(canvasElement).findByRole('alert')).toBeVisible();
  },
};

/** Accepted: the thank-you message replaces the form. */
export const Success: Story = {
  beforeEach: stubFetch(routes({ status: 201, body: { requestId: 'req-demo' } })),
  play: async ({ canvasElement }) => {
    await fillBooking(canvasElement);
    await submit(canvasElement);
    await expect(await within(canvasElement).findByText(bookingCopy.successTitle)).toBeVisible();
  },
};

/** No start date is free for the chosen kit in the next four weeks. */
export const NoDates: Story = {
  beforeEach: stubFetch({
    ...routes({ status: 201, body: { requestId: 'req-demo' } }),
    '/api/public/availability': { status: 200, body: { days: [] } },
  }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('radio', { name: BOOKING_KIT_TYPES[0] }));
    await expect(await canvas.findByText(bookingCopy.noDates)).toBeVisible();
  },
};
