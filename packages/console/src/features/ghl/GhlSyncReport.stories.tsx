import type { Meta, StoryObj } from '@storybook/react-vite';
import { API_PATHS, type GhlSyncReport, ghlMessages, messages } from '@wellrest/core';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { stubbedCallsSettled, stubFetch } from '../../../../../.storybook/fetchStub';
import { GhlReportDialog, GhlSyncReportView } from './GhlSyncReport';
import { GHL_REPORT_KEY } from './queries';

const report: GhlSyncReport = {
  runs: [
    {
      id: 3,
      status: 'stopped',
      imported: 12,
      pushed: 40,
      rejected: 1,
      conflicts: 2,
      message: ghlMessages.dailyLimit('2025-11-26 00:00 UTC'),
      startedAt: '2025-11-25T14:02:00Z',
      finishedAt: '2025-11-25T14:09:00Z',
    },
    {
      id: 2,
      status: 'done',
      imported: 3,
      pushed: 5,
      rejected: 0,
      conflicts: 0,
      message: null,
      startedAt: '2025-11-24T09:00:00Z',
      finishedAt: '2025-11-24T09:00:20Z',
    },
  ],
  issues: [
    {
      id: 11,
      patientId: 21,
      patientName: 'Blake Demoford',
      kind: 'duplicate',
      field: null,
      message: ghlMessages.duplicateConflict,
      contactId: 'ghl-abc',
      otherPatientId: 20,
      otherPatientName: 'Avery Demoford',
      localName: 'Blake Demoford',
      remoteName: 'Avery Demoford',
      createdAt: '2025-11-25T14:03:00Z',
    },
    {
      id: 12,
      patientId: 22,
      patientName: 'Casey Testwell',
      kind: 'name',
      field: null,
      message: ghlMessages.nameConflict,
      contactId: 'ghl-def',
      otherPatientId: null,
      otherPatientName: null,
      localName: 'Casey Testwell',
      remoteName: 'Casey Test-Well',
      createdAt: '2025-11-25T14:04:00Z',
    },
    {
      id: 13,
      patientId: 23,
      patientName: 'Devon Mockley',
      kind: 'rejected',
      field: 'phone',
      message: ghlMessages.rejected('phone', 'phone must be a valid phone number'),
      contactId: null,
      otherPatientId: null,
      otherPatientName: null,
      localName: null,
      remoteName: null,
      createdAt: '2025-11-25T14:05:00Z',
    },
  ],
  counts: { rejected: 1, conflicts: 2 },
};

/** The GoHighLevel sync report: recent runs with counts, conflicts to decide, rejected patients. */
const meta = {
  title: 'Console/GoHighLevel/Sync report',
  component: GhlSyncReportView,
  decorators: [
    (Story) => (
      <div className="max-w-2xl bg-white p-4">
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof GhlSyncReportView>;

export default meta;
type Story = StoryObj<typeof meta>;

export const WithConflicts: Story = {
  decorators: [withConsole({ data: [[GHL_REPORT_KEY, report]] })],
  beforeEach: stubFetch({
    [`POST ${API_PATHS.ghlResolve(11)}`]: { status: 200, body: { message: ghlMessages.resolved.skip } },
    [`POST ${API_PATHS.ghlResolve(12)}`]: {
      status: 409,
      body: { error: ghlMessages.conflictResolved },
    },
  }),
};

export const NothingToResolve: Story = {
  decorators: [
    withConsole({
      data: [[GHL_REPORT_KEY, { runs: [], issues: [], counts: { rejected: 0, conflicts: 0 } }]],
    }),
  ],
};

export const Loading: Story = {
  decorators: [withConsole()],
  beforeEach: stubFetch({ [`GET ${API_PATHS.ghlReport}`]: { network: 'pending' } }),
};

export const Failed: Story = {
  decorators: [withConsole()],
  beforeEach: stubFetch({
    [`GET ${API_PATHS.ghlReport}`]: { status: 500, body: { error: messages.common.error } },
  }),
};

/** The report as the dashboard opens it: a dialog that loads the report itself. */
export const ReportDialog: Story = {
  decorators: [withConsole({ network: true })],
  beforeEach: stubFetch({ [`GET ${API_PATHS.ghlReport}`]: { status: 200, body: report } }),
  render: () => <GhlReportDialog open onOpenChange={() => {}} />,
  play: () => stubbedCallsSettled(),
};

export const ReportDialogEmpty: Story = {
  decorators: [withConsole({ network: true })],
  beforeEach: stubFetch({
    [`GET ${API_PATHS.ghlReport}`]: {
      status: 200,
      body: { runs: [], issues: [], counts: { rejected: 0, conflicts: 0 } },
    },
  }),
  render: () => <GhlReportDialog open onOpenChange={() => {}} />,
  play: () => stubbedCallsSettled(),
};

export const ReportDialogLoading: Story = {
  decorators: [withConsole({ network: true })],
  beforeEach: stubFetch({ [`GET ${API_PATHS.ghlReport}`]: { network: 'pending' } }),
  render: () => <GhlReportDialog open onOpenChange={() => {}} />,
};

export const ReportDialogLoadFailed: Story = {
  decorators: [withConsole({ network: true })],
  beforeEach: stubFetch({
    [`GET ${API_PATHS.ghlReport}`]: { status: 500, body: { error: messages.common.error } },
  }),
  render: () => <GhlReportDialog open onOpenChange={() => {}} />,
  play: () => stubbedCallsSettled(),
};
