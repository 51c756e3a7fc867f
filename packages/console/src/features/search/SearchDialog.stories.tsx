import type { Meta, StoryObj } from '@storybook/react-vite';
import { messages, type SearchResult } from '@wellrest/core';
import { expect, userEvent, within } from 'storybook/test';
import { SearchDialog } from '@/components/layout/SearchDialog';
import { CURRENT_USER_KEY } from '@/lib/queryClient';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { authMe } from '../../../../../.storybook/demoData';
import {
  failingRoutes,
  pendingRoutes,
  type StubRoutes,
  stubbedCallsSettled,
  stubFetch,
} from '../../../../../.storybook/fetchStub';

// The global search (Cmd/Ctrl+K) as the front desk types into it: grouped results, nothing
// found, still searching, and a failed search. Synthetic demo people only.

const RESULTS: SearchResult[] = [
  {
    type: 'patient',
    id: 7,
    title: 'Gray Testwell',
    subtitle: 'gray.testwell@example.test',
    url: '/patients#patient-7',
  },
  {
    type: 'patient',
    id: 12,
    title: 'Casey Testwell',
    subtitle: 'casey.testwell@example.test',
    url: '/patients#patient-12',
  },
  {
    type: 'booking',
    id: 41,
    title: 'Gray Testwell',
    subtitle: '#41 · Nov 24, 2026 · ZM-002 · picked up',
    url: '/bookings-management?booking=41',
  },
];

const found: StubRoutes = { 'POST /api/search': { status: 200, body: RESULTS } };

const typed =
  (query: string) =>
  async ({ canvasElement }: { canvasElement: HTMLElement }) => {
    const page = within(canvasElement.ownerDocument.body);
    await userEvent.type(await page.findByPlaceholderText(messages.search.placeholder), query);
    await stubbedCallsSettled();
  };

const meta = {
  title: 'Console/Search',
  component: SearchDialog,
  args: { open: true, onOpenChange: () => {} },
  decorators: [withConsole({ path: '/', data: [[CURRENT_USER_KEY, authMe]], network: true })],
} satisfies Meta<typeof SearchDialog>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Filled: Story = {
  beforeEach: stubFetch(found),
  play: async (context) => {
    await typed('Testwell')(context);
    await expect(
      await within(context.canvasElement.ownerDocument.body).findByText('Casey Testwell'),
    ).toBeVisible();
  },
};

export const Empty: Story = {
  beforeEach: stubFetch({ 'POST /api/search': { status: 200, body: [] } }),
  play: typed('Zyxwv'),
};

export const Loading: Story = { beforeEach: stubFetch(pendingRoutes(found)), play: typed('Testwell') };

export const LoadFailed: Story = { beforeEach: stubFetch(failingRoutes(found)), play: typed('Testwell') };

/** Fewer letters than a search needs: the dialog says how many. */
export const TooShort: Story = { beforeEach: stubFetch(found), play: typed('T') };
