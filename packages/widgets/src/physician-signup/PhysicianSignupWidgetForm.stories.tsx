import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { type StubReply, type StubRoutes, stubFetch } from '../../../../.storybook/fetchStub';
import { widgetCopy } from '../shared/copy';
import { fieldMessages, formMessages } from '../shared/validate';
import { physicianSignupCopy as copy, PhysicianSignupWidget } from './PhysicianSignupWidget';

function routes(submit: StubReply): StubRoutes {
  return {
    '/api/public/diagnostics': { status: 200, body: { status: 'ok' }, delayMs: 200 },
    'POST /api/public/physician-signups': submit,
  };
}

/** Fills the registration as a physician would (sample data only). */
async function fillSignup(canvasElement: HTMLElement) {
  const canvas = within(canvasElement);
  await userEvent.type(await canvas.findByLabelText(copy.name), 'Dr. Morgan Sample');
  await userEvent.type(canvas.getByLabelText(copy.npi), '1234567893');
  await userEvent.type(canvas.getByLabelText(copy.practice), 'Example Sleep Clinic');
  await userEvent.type(canvas.getByLabelText(copy.email), 'morgan@example.test');
  await userEvent.type(canvas.getByLabelText(copy.phone), '(555) 555-0103');
  await userEvent.type(canvas.getByLabelText(copy.specialty), 'Sleep medicine');
  await userEvent.click(canvas.getByRole('button', { name: copy.submit }));
}

/** The registration form's states after the connection check: validation, sending, server errors, success. */
const meta = {
  title: 'Widgets/Physician signup/Form',
  component: PhysicianSignupWidget,
  args: { apiBase: 'https://wellrest.example', theme: 'light' },
} satisfies Meta<typeof PhysicianSignupWidget>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Sent empty: each required field says what it needs. */
export const ValidationErrors: Story = {
  beforeEach: stubFetch(routes({ status: 201, body: { requestId: 'signup-demo' } })),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: copy.submit }));
    await expect(await canvas.findByText(fieldMessages.nameRequired)).toBeVisible();
    await expect(canvas.getByText(fieldMessages.practiceRequired)).toBeVisible();
    await expect(canvas.getByText(fieldMessages.specialtyRequired)).toBeVisible();
    await expect(canvas.getByText(formMessages.fixErrors)).toBeVisible();
  },
};

export const Sending: Story = {
  beforeEach: stubFetch(routes({ network: 'pending' })),
  play: async ({ canvasElement }) => {
    await fillSignup(canvasElement);
    await expect(await within(canvasElement).findByText(widgetCopy.sending)).toBeVisible();
  },
};

/** The server refused the email address: the message shows beside the field. */
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
    await fillSignup(canvasElement);
    await expect(await within(canvasElement).findByText(fieldMessages.emailInvalid)).toBeVisible();
  },
};

export const NetworkError: Story = {
  beforeEach: stubFetch(routes({ network: 'error' })),
  play: async ({ canvasElement }) => {
    await fillSignup(canvasElement);
    await expect(await within(canvasElement).findByRole('alert')).toBeVisible();
  },
};

export const Success: Story = {
  beforeEach: stubFetch(routes({ status: 201, body: { requestId: 'signup-demo' } })),
  play: async ({ canvasElement }) => {
    await fillSignup(canvasElement);
    await expect(await within(canvasElement).findByText(copy.successTitle)).toBeVisible();
  },
};
