import type { Meta, StoryObj } from '@storybook/react-vite';
import type { FormTemplateSummary } from '@wellrest/core';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { FORMS_KEY } from './formsApi';
import TemplatesPage from './TemplatesPage';

const row = (
  id: number,
  name: string,
  category: string,
  extra: Partial<FormTemplateSummary> = {},
): FormTemplateSummary => ({
  id,
  familyId: id,
  name,
  category,
  status: 'published',
  version: 1,
  submissionCount: 0,
  lastSubmittedAt: null,
  updatedAt: '2026-11-20T10:00:00.000Z',
  draftId: null,
  publishedId: id,
  ...extra,
});

const templates = [
  row(1, 'Epworth Sleepiness Scale', 'Sleepiness', {
    submissionCount: 12,
    lastSubmittedAt: '2026-11-24T15:00:00.000Z',
  }),
  row(2, 'STOP-Bang', 'Sleep apnea', { submissionCount: 9, lastSubmittedAt: '2026-11-23T09:00:00.000Z' }),
  row(3, 'Insomnia Severity Index', 'Insomnia', { version: 2, draftId: 7 }),
  row(4, 'Pre-visit checklist', 'Intake', { status: 'draft', publishedId: null }),
  row(5, 'Old intake', 'Intake', { status: 'archived', publishedId: null }),
];

const meta = {
  title: 'Forms/TemplatesPage',
  component: TemplatesPage,
} satisfies Meta<typeof TemplatesPage>;
export default meta;
type Story = StoryObj<typeof meta>;

export const List: Story = {
  decorators: [withConsole({ path: '/forms/templates', data: [[[...FORMS_KEY, 'templates'], templates]] })],
};

export const Empty: Story = {
  decorators: [withConsole({ path: '/forms/templates', data: [[[...FORMS_KEY, 'templates'], []]] })],
};

export const Loading: Story = { decorators: [withConsole({ path: '/forms/templates' })] };
