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

/** The server's database is down (503): can't load, and checks again by itself. */
export const DatabaseDown: Story = { beforeEach: stubHealthFetch('database-down') };

/** The server refuses this page: a wrong, missing or revoked key, or an origin the key does not list. */
export const NotSetUpForThisWebsite: Story = { beforeEach: stubHealthFetch('forbidden') };

/** A light accent: the widget puts dark text on its buttons. */
export const LightAccent: Story = { args: { accentColor: '#f59e0b' }, beforeEach: stubHealthFetch('ok') };

export const DarkWithAccent: Story = {
  args: { theme: 'dark', accentColor: '#0d9488' },
  beforeEach: stubHealthFetch('ok'),
};
