import type { Meta, StoryObj } from '@storybook/react-vite';
import { authMessages } from '@wellrest/core';
import { expect, userEvent, within } from 'storybook/test';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { stubFetch } from '../../../../../.storybook/fetchStub';
import ChoosePasswordScreen from './ChoosePasswordScreen';

/** The first sign-in of an account whose password an administrator chose: nothing else opens. */
const meta = {
  title: 'Console/Auth/Choose password screen',
  component: ChoosePasswordScreen,
  args: { username: 'new-scheduler' },
  decorators: [withConsole({ path: '/' })],
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof ChoosePasswordScreen>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { name: authMessages.choosePasswordTitle })).toBeVisible();
  },
};

/** The server refuses the current password: the field says so. */
export const WrongCurrentPassword: Story = {
  beforeEach: stubFetch({
    'POST /api/auth/password': {
      status: 400,
      body: { error: 'Invalid request', fields: { currentPassword: authMessages.currentPasswordWrong } },
    },
  }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('Current password'), 'not-the-first-one');
    await userEvent.type(canvas.getByLabelText('New password'), 'My-Own-Quiet-Harbour-5');
    await userEvent.type(canvas.getByLabelText('Confirm new password'), 'My-Own-Quiet-Harbour-5');
    await userEvent.click(canvas.getByRole('button', { name: 'Change password' }));
    await expect(await canvas.findByText(authMessages.currentPasswordWrong)).toBeVisible();
  },
};
