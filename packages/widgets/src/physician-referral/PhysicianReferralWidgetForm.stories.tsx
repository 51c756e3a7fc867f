import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { type StubReply, type StubRoutes, stubFetch } from '../../../../.storybook/fetchStub';
import { widgetCopy } from '../shared/copy';
import { fieldMessages, formMessages } from '../shared/validate';
import { physicianReferralCopy as copy, PhysicianReferralWidget } from './PhysicianReferralWidget';

function routes(submit: StubReply): StubRoutes {
  return {
    '/api/public/diagnostics': { status: 200, body: { status: 'ok' }, delayMs: 200 },
    'POST /api/public/referrals': submit,
  };
}

/** Fills the referral as a physician's office would (sample data only). */
async function fillReferral(canvasElement: HTMLElement) {
  const canvas = within(canvasElement);
  await userEvent.type(await canvas.findByLabelText(copy.physicianName), 'Dr. Jordan Example');
  await userEvent.type(canvas.getByLabelText(copy.npi), '1234567893');
  await userEvent.type(canvas.getByLabelText(copy.physicianEmail), 'office@example.test');
  await userEvent.type(canvas.getByLabelText(copy.patientName), 'Casey Testwell');
  await userEvent.type(canvas.getByLabelText(copy.patientPhone), '(555) 555-0102');
  await userEvent.type(
    canvas.getByLabelText(copy.reason),
    'Loud snoring and daytime sleepiness for six months.',
  );
  await userEvent.click(canvas.getByRole('button', { name: copy.submit }));
}

/** The referral form's states after the connection check: validation, sending, server errors, success. */
const meta = {
  title: 'Widgets/Physician referral/Form',
  component: PhysicianReferralWidget,
  args: { apiBase: 'https://wellrest.example', theme: 'light' },
} satisfies Meta<typeof PhysicianReferralWidget>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Sent empty: each required field says what it needs. */
export const ValidationErrors: Story = {
  beforeEach: stubFetch(routes({ status: 201, body: { requestId: 'ref-demo' } })),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: copy.submit }));
    await expect(await canvas.findByText(fieldMessages.physicianNameRequired)).toBeVisible();
    await expect(canvas.getByText(fieldMessages.npiRequired)).toBeVisible();
    await expect(canvas.getByText(fieldMessages.reasonTooShort)).toBeVisible();
    await expect(canvas.getByText(formMessages.fixErrors)).toBeVisible();
  },
};

export const Sending: Story = {
  beforeEach: stubFetch(routes({ network: 'pending' })),
  play: async ({ canvasElement }) => {
    await fillReferral(canvasElement);
    await expect(await within(canvasElement).findByText(widgetCopy.sending)).toBeVisible();
  },
};

/** The server refused the NPI: the message shows beside the field. */
export const ServerError: Story = {
  beforeEach: stubFetch(
    routes({
      status: 400,
      body: {
        error: formMessages.fixErrors,
        issues: [{ path: 'physician.npi', message: fieldMessages.npiInvalid }],
      },
    }),
  ),
  play: async ({ canvasElement }) => {
    await fillReferral(canvasElement);
    await expect(await within(canvasElement).findByText(fieldMessages.npiInvalid)).toBeVisible();
  },
};

export const NetworkError: Story = {
  beforeEach: stubFetch(routes({ network: 'error' })),
  play: async ({ canvasElement }) => {
    await fillReferral(canvasElement);
    await expect(await within(canvasElement).findByRole('alert')).toBeVisible();
  },
};

export const Success: Story = {
  beforeEach: stubFetch(routes({ status: 201, body: { requestId: 'ref-demo' } })),
  play: async ({ canvasElement }) => {
    await fillReferral(canvasElement);
    await expect(await within(canvasElement).findByText(copy.successTitle)).toBeVisible();
  },
};
