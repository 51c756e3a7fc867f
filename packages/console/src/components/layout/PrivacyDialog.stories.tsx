import type { Meta, StoryObj } from '@storybook/react-vite';
import {
  API_PATHS,
  DEFAULT_PRIVACY_OFFICER_EMAIL,
  DEFAULT_PRIVACY_OFFICER_PHONE,
  DEFAULT_PRIVACY_POLICY_VERSION,
  messages,
  PRIVACY_ACK_STORAGE_KEY,
} from '@wellrest/core';
import { expect, userEvent, within } from 'storybook/test';
import { PRIVACY_CHECK_KEY, type PrivacyCheckResponse } from '@/features/privacy/privacyCheck';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { type StubReply, stubFetch } from '../../../../../.storybook/fetchStub';
import { PrivacyDialog } from './PrivacyDialog';

const check: PrivacyCheckResponse = {
  hasAcknowledged: false,
  currentVersion: DEFAULT_PRIVACY_POLICY_VERSION,
  acknowledgedVersion: null,
  needsAcknowledgment: true,
  contact: { email: DEFAULT_PRIVACY_OFFICER_EMAIL, phone: DEFAULT_PRIVACY_OFFICER_PHONE },
};

/** The dialog shows only while this browser has no acknowledgment flag, and answers the POST with `reply`. */
function acknowledgeAnswers(reply: StubReply) {
  const stub = stubFetch({ [`POST ${API_PATHS.privacyAcknowledge}`]: reply });
  return () => {
    localStorage.removeItem(PRIVACY_ACK_STORAGE_KEY);
    const restore = stub();
    return () => {
      restore();
      localStorage.removeItem(PRIVACY_ACK_STORAGE_KEY);
    };
  };
}

async function tickBoth(canvasElement: HTMLElement) {
  const dialog = within(canvasElement.ownerDocument.body).getByRole('dialog', {
    name: messages.privacy.title,
  });
  const scope = within(dialog);
  await userEvent.click(scope.getByRole('checkbox', { name: messages.privacy.readCheckbox }));
  await userEvent.click(scope.getByRole('checkbox', { name: messages.privacy.agreeCheckbox }));
  return scope;
}

/** The blocking privacy and HIPAA notice shown after sign-in until it is acknowledged. */
const meta = {
  title: 'Console/Layout/Privacy dialog',
  component: PrivacyDialog,
  decorators: [withConsole({ data: [[PRIVACY_CHECK_KEY, check]] })],
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof PrivacyDialog>;

export default meta;
type Story = StoryObj<typeof meta>;

/** As it opens: the button stays disabled until both boxes are ticked. */
export const Open: Story = { beforeEach: acknowledgeAnswers({ status: 201, body: {} }) };

export const ReadyToAcknowledge: Story = {
  beforeEach: acknowledgeAnswers({ status: 201, body: {} }),
  play: async ({ canvasElement }) => {
    const dialog = await tickBoth(canvasElement);
    await expect(dialog.getByRole('button', { name: messages.privacy.acknowledgeButton })).toBeEnabled();
  },
};

export const Acknowledging: Story = {
  beforeEach: acknowledgeAnswers({ network: 'pending' }),
  play: async ({ canvasElement }) => {
    const dialog = await tickBoth(canvasElement);
    await userEvent.click(dialog.getByRole('button', { name: messages.privacy.acknowledgeButton }));
    await expect(await dialog.findByRole('button', { name: messages.privacy.acknowledging })).toBeDisabled();
  },
};

/** The server did not record it: the dialog stays open with an error toast. */
export const Failed: Story = {
  beforeEach: acknowledgeAnswers({ status: 500, body: { error: messages.common.error } }),
  play: async ({ canvasElement }) => {
    const dialog = await tickBoth(canvasElement);
    await userEvent.click(dialog.getByRole('button', { name: messages.privacy.acknowledgeButton }));
    const page = within(canvasElement.ownerDocument.body);
    await expect(await page.findByText(messages.privacy.acknowledgeFailed.description)).toBeVisible();
  },
};

/** Recorded: the dialog closes and a toast thanks the user. */
export const Acknowledged: Story = {
  beforeEach: acknowledgeAnswers({ status: 201, body: {} }),
  play: async ({ canvasElement }) => {
    const dialog = await tickBoth(canvasElement);
    await userEvent.click(dialog.getByRole('button', { name: messages.privacy.acknowledgeButton }));
    const page = within(canvasElement.ownerDocument.body);
    await expect(await page.findByText(messages.privacy.acknowledged.description)).toBeVisible();
  },
};
