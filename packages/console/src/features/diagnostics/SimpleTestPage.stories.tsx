import type { Meta, StoryObj } from '@storybook/react-vite';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { publicDiagnostics } from '../../../../../.storybook/demoData';
import { screenStates, stubbedCallsSettled, stubFetch } from '../../../../../.storybook/fetchStub';
import SimpleTestPage from './SimpleTestPage';

const route = 'GET /api/public/diagnostics';
const states = screenStates({ [route]: { status: 200, body: publicDiagnostics } }, {});

/** /simple-test: the public check that the server and its database answer. */
const meta = {
  title: 'Console/Diagnostics/Simple test',
  component: SimpleTestPage,
  decorators: [withConsole({ path: '/simple-test', network: true })],
} satisfies Meta<typeof SimpleTestPage>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Healthy: Story = states.Filled;
export const DatabaseDown: Story = {
  beforeEach: stubFetch({
    [route]: { status: 200, body: { ...publicDiagnostics, database: 'unavailable' } },
  }),
  play: () => stubbedCallsSettled(),
};
export const Checking: Story = states.Loading;
export const Unreachable: Story = states.LoadFailed;
