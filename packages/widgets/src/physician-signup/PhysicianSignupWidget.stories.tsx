import type { Meta, StoryObj } from '@storybook/react-vite';
import { stubHealthFetch } from '../shared/healthFetchStub';
import { PhysicianSignupWidget } from './PhysicianSignupWidget';

/** The React component inside `<wellrest-physician-signup>`, in each connection state. */
const meta = {
  title: 'Widgets/Physician signup',
  component: PhysicianSignupWidget,
  args: { apiBase: 'https://wellrest.example', theme: 'light' },
  argTypes: {
    theme: { control: 'inline-radio', options: ['light', 'dark', 'auto'] },
    accentColor: { control: 'color' },
  },
} satisfies Meta<typeof PhysicianSignupWidget>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Loading: Story = { beforeEach: stubHealthFetch('pending') };

export const Ready: Story = { beforeEach: stubHealthFetch('ok') };

export const Unreachable: Story = { beforeEach: stubHealthFetch('down') };

export const DarkWithAccent: Story = {
  args: { theme: 'dark', accentColor: '#0d9488' },
  beforeEach: stubHealthFetch('ok'),
};
