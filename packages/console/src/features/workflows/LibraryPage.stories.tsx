import type { Meta, StoryObj } from '@storybook/react-vite';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { stubFetch } from '../../../../../.storybook/fetchStub';
import { LIBRARY_ITEMS } from './fixtures';
import LibraryPage from './LibraryPage';

const scheduler = { id: 3, username: 'scheduler', role: 'scheduler' };

/** /workflow-library: prebuilt workflows, what they send, and Install. */
const meta = {
  title: 'Console/Workflows/LibraryPage',
  component: LibraryPage,
  decorators: [withConsole({ path: '/workflow-library', data: [[['/api/auth/me'], scheduler]] })],
  parameters: { layout: 'padded' },
} satisfies Meta<typeof LibraryPage>;
export default meta;
type Story = StoryObj<typeof meta>;

const answers = {
  'GET /api/auth/me': { status: 200, body: scheduler },
  'GET /api/workflow-library': { status: 200, body: { workflows: LIBRARY_ITEMS } },
  'POST /api/workflow-library/return-reminder/install': { network: 'pending' },
} as const;

export const Filled: Story = { beforeEach: stubFetch(answers) };

export const Loading: Story = {
  beforeEach: stubFetch({ ...answers, 'GET /api/workflow-library': { network: 'pending' } }),
};

export const Empty: Story = {
  beforeEach: stubFetch({
    ...answers,
    'GET /api/workflow-library': { status: 200, body: { workflows: [] } },
  }),
};

export const LoadFailed: Story = {
  beforeEach: stubFetch({
    ...answers,
    'GET /api/workflow-library': { status: 500, body: { error: 'Something went wrong' } },
  }),
};

export const Phone: Story = { ...Filled, globals: { viewport: { value: 'mobile1' } } };
