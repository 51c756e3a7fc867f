import type { Meta, StoryObj } from '@storybook/react-vite';
import { formsMessages, shippedForm } from '@wellrest/core';
import { expect, userEvent, within } from 'storybook/test';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { FormFiller } from './FormFiller';

const meta = {
  title: 'Forms/FormFiller',
  component: FormFiller,
  decorators: [withConsole()],
  args: {
    definition: shippedForm('sleep_intake').definition,
    submitting: false,
    onSubmit: async () => ({ ok: true as const }),
  },
} satisfies Meta<typeof FormFiller>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The sleep intake history: follow-up questions appear after a yes. */
export const SleepIntake: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: formsMessages.next }));
    await expect(canvas.getAllByText(formsMessages.required).length).toBeGreaterThan(0);
    const snores = canvas.getByRole('group', { name: /Do you snore/ });
    await userEvent.click(within(snores).getByRole('radio', { name: 'Yes' }));
    await expect(canvas.getByLabelText(/nights a week do you snore/)).toBeTruthy();
  },
};

/** The Epworth scale as a patient sees it. */
export const Epworth: Story = { args: { definition: shippedForm('epworth').definition } };
