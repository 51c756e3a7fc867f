import type { Meta, StoryObj } from '@storybook/react-vite';
import { HOUSEKEEPING_RETENTION_DEFAULTS, HOUSEKEEPING_TASKS } from '@wellrest/core';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { HOUSEKEEPING_KEY, HousekeepingCard, type HousekeepingView } from './HousekeepingCard';

const ran: HousekeepingView = {
  auditRetentionYears: 6,
  tasks: HOUSEKEEPING_TASKS.map((task, i) => ({
    task,
    retentionDays: HOUSEKEEPING_RETENTION_DEFAULTS[task],
    lastRunAt: '2031-03-05T08:30:00.000Z',
    lastRemoved: i * 7,
    totalRemoved: i * 120,
  })),
};

const neverRan: HousekeepingView = {
  auditRetentionYears: 6,
  tasks: HOUSEKEEPING_TASKS.map((task) => ({
    task,
    retentionDays: HOUSEKEEPING_RETENTION_DEFAULTS[task],
    lastRunAt: null,
    lastRemoved: null,
    totalRemoved: 0,
  })),
};

/** The administrator's view of the nightly purge: retention per kind of row, last run, rows removed. */
const meta = {
  title: 'Console/Admin/HousekeepingCard',
  component: HousekeepingCard,
} satisfies Meta<typeof HousekeepingCard>;
export default meta;
type Story = StoryObj<typeof meta>;

export const AfterANightlyRun: Story = { decorators: [withConsole({ data: [[HOUSEKEEPING_KEY, ran]] })] };
export const NotRunYet: Story = { decorators: [withConsole({ data: [[HOUSEKEEPING_KEY, neverRan]] })] };
export const Loading: Story = { decorators: [withConsole()] };
