import type { Meta, StoryObj } from '@storybook/react-vite';
import { CURRENT_USER_KEY } from '@/lib/queryClient';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { CLINICAL_KEY } from './clinicalApi';
import {
  mdDashboard,
  physicianDashboard,
  physicians,
  referralDetail,
  referralItems,
  slaDashboard,
} from './fixtures';
import MedicalDirectorDashboardPage, { InterpretationForm } from './MedicalDirectorPages';
import { DashboardView } from './PhysicianDashboardPage';
import PhysiciansPage from './PhysiciansPages';
import { ReferralDetailView } from './ReferralDetailPanel';
import { ReferralList } from './ReferralList';
import ReferralsPage from './ReferralsPage';
import { SlaDashboardContent } from './SlaPages';

// The clinical screens with synthetic data: lists, dashboards, the referral panel, the
// interpretation form; each with its loading and empty state where it has one.

const scheduler = {
  id: 3,
  username: 'scheduler',
  email: 'scheduler@wellrest.test',
  displayName: 'Demo Scheduler',
  role: 'scheduler',
  physicianId: null,
};
const user = [CURRENT_USER_KEY, scheduler] as const;

const meta = { title: 'Clinical', parameters: { layout: 'padded' } } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

export const ReferralListTable: Story = {
  decorators: [withConsole({ data: [user] })],
  render: () => (
    <ReferralList
      referrals={referralItems}
      onOpen={() => {}}
      selected={new Set([1])}
      onSelectedChange={() => {}}
    />
  ),
};

export const ReferralsPageList: Story = {
  decorators: [
    withConsole({ path: '/referrals', data: [user, [[...CLINICAL_KEY, '/api/referrals'], referralItems]] }),
  ],
  render: () => <ReferralsPage />,
};

export const ReferralsPageEmpty: Story = {
  decorators: [withConsole({ path: '/referrals', data: [user, [[...CLINICAL_KEY, '/api/referrals'], []]] })],
  render: () => <ReferralsPage />,
};

export const ReferralsPageLoading: Story = {
  decorators: [withConsole({ path: '/referrals', data: [user] })],
  render: () => <ReferralsPage />,
};

export const ReferralDetails: Story = {
  decorators: [withConsole({ data: [user] })],
  render: () => (
    <div className="max-w-xl">
      <ReferralDetailView referral={referralDetail} />
    </div>
  ),
};

export const Physicians: Story = {
  decorators: [
    withConsole({ path: '/physicians', data: [user, [[...CLINICAL_KEY, '/api/physicians'], physicians]] }),
  ],
  render: () => <PhysiciansPage />,
};

export const PhysiciansEmpty: Story = {
  decorators: [
    withConsole({ path: '/physicians', data: [user, [[...CLINICAL_KEY, '/api/physicians'], []]] }),
  ],
  render: () => <PhysiciansPage />,
};

export const PhysicianDashboard: Story = {
  decorators: [withConsole({ data: [user] })],
  render: () => <DashboardView view={physicianDashboard} />,
};

export const PhysicianDashboardNotLinked: Story = {
  decorators: [withConsole({ data: [user] })],
  render: () => <DashboardView view={{ ...physicianDashboard, linked: false }} />,
};

export const SlaDashboard: Story = {
  decorators: [withConsole({ data: [user] })],
  render: () => <SlaDashboardContent view={slaDashboard} />,
};

export const MedicalDirectorDashboard: Story = {
  decorators: [
    withConsole({
      path: '/medical-director/dashboard',
      data: [user, [[...CLINICAL_KEY, '/api/medical-director/dashboard'], mdDashboard]],
    }),
  ],
  render: () => <MedicalDirectorDashboardPage />,
};

export const Interpretation: Story = {
  decorators: [withConsole({ data: [user] })],
  render: () => (
    <div className="max-w-xl">
      <InterpretationForm referral={referralDetail} />
    </div>
  ),
};
