import type { Meta, StoryObj } from '@storybook/react-vite';
import {
  type CurrentUser,
  DEFAULT_PRIVACY_OFFICER_EMAIL,
  DEFAULT_PRIVACY_OFFICER_PHONE,
  DEFAULT_PRIVACY_POLICY_VERSION,
} from '@wellrest/core';
import { CalendarDays, Package, Users } from 'lucide-react';
import { PageHeader } from '@/components/PageHeader';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PRIVACY_CHECK_KEY, type PrivacyCheckResponse } from '@/features/privacy/privacyCheck';
import { CURRENT_USER_KEY } from '@/lib/queryClient';
import { routeTitle } from '@/routes/titles';
import { withConsole } from '../../../../../.storybook/consoleStory';
import AppLayout from './AppLayout';

const acknowledged: PrivacyCheckResponse = {
  hasAcknowledged: true,
  currentVersion: DEFAULT_PRIVACY_POLICY_VERSION,
  acknowledgedVersion: DEFAULT_PRIVACY_POLICY_VERSION,
  needsAcknowledgment: false,
  contact: { email: DEFAULT_PRIVACY_OFFICER_EMAIL, phone: DEFAULT_PRIVACY_OFFICER_PHONE },
};

const user = (role: CurrentUser['role'], username: string): CurrentUser => ({ id: 1, username, role });

/** The signed-in shell as `user` on `path`: the session and privacy answers seeded, nothing fetched. */
const signedInAs = (signedIn: CurrentUser, path = '/inventory') =>
  withConsole({
    path,
    data: [
      [CURRENT_USER_KEY, signedIn],
      [PRIVACY_CHECK_KEY, acknowledged],
    ],
  });

const figures = [
  { title: 'Kits available', value: '12 of 15', icon: Package },
  { title: 'Pickups this week', value: '9', icon: CalendarDays },
  { title: 'Patients in testing', value: '4', icon: Users },
];

/** A page as it sits in the layout: header with an action, then cards. */
function SamplePage() {
  return (
    <>
      <PageHeader
        title={routeTitle('/inventory')}
        description="Sample content: the page of the current route renders here."
        actions={<Button>Add kit</Button>}
      />
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {figures.map(({ title, value, icon: Icon }) => (
          <Card key={title}>
            <CardHeader className="flex-row items-center justify-between">
              <CardTitle className="text-sm font-medium text-slate-600">{title}</CardTitle>
              <Icon className="size-5 text-accent-700" aria-hidden />
            </CardHeader>
            <CardContent>
              <p className="text-2xl font-semibold text-slate-900">{value}</p>
              <CardDescription>Updated a moment ago</CardDescription>
            </CardContent>
          </Card>
        ))}
      </div>
    </>
  );
}

function ConsoleShell() {
  return (
    <AppLayout>
      <SamplePage />
    </AppLayout>
  );
}

/** The console's sidebar and header around a page; the sidebar follows the signed-in role. */
const meta = {
  title: 'Console/Layout/App layout',
  component: ConsoleShell,
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof ConsoleShell>;

export default meta;
type Story = StoryObj<typeof meta>;

/** An administrator: every group, Administration included. */
export const Admin: Story = { decorators: [signedInAs(user('admin', 'avery.admin'))] };

/** A scheduler: the Scheduler group instead of Administration. */
export const Scheduler: Story = {
  decorators: [signedInAs(user('scheduler', 'blake.scheduler'), '/scheduler/kanban-dashboard')],
};

/** A medical director on the dashboard route. */
export const MedicalDirector: Story = {
  decorators: [signedInAs(user('medical_director', 'casey.director'), '/')],
};

/** A phone: the sidebar becomes a sheet behind the menu button. */
export const Phone: Story = {
  decorators: [signedInAs(user('admin', 'avery.admin'))],
  globals: { viewport: { value: 'mobile1', isRotated: false } },
};
