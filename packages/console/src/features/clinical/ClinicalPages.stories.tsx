import type { Meta, StoryObj } from '@storybook/react-vite';
import type { JSX } from 'react';
import { Route } from 'wouter';
import { CURRENT_USER_KEY } from '@/lib/queryClient';
import { withConsole } from '../../../../../.storybook/consoleStory';
import {
  authMe,
  interpretation33,
  mdDashboard,
  physician1,
  physicianDashboard,
  physicianMe,
  physicians,
  referral33,
  referrals,
  slaCalendar,
  slaDashboard,
  slaDefinitions,
  slaLetterhead,
} from '../../../../../.storybook/demoData';
import {
  type StubRoutes,
  screenStates,
  stubbedCallsSettled,
  stubFetch,
} from '../../../../../.storybook/fetchStub';
import MedicalDirectorDashboardPage, { TestAssignmentPage } from './MedicalDirectorPages';
import NewReferralPage from './NewReferralPage';
import PhysicianDashboardPage from './PhysicianDashboardPage';
import PhysiciansPage, { PhysicianDetailPage, RegisterPhysicianPage } from './PhysiciansPages';
import { ReferralDetailSheet } from './ReferralDetailPanel';
import ReferralsPage, { PhysicianReferralsPage } from './ReferralsPage';
import SlaDefinitionsPage, { SlaDashboardPage } from './SlaPages';

// Every clinical screen answered by the API stub: physicians, referrals, SLA tracking and the
// medical director's reading queue, each loading, empty, failed and filled.

const admin = [CURRENT_USER_KEY, authMe] as const;
const director = [
  CURRENT_USER_KEY,
  { ...authMe, id: 2, username: 'director', role: 'medical_director' },
] as const;

const meta = {
  title: 'Console/Clinical/Pages',
  decorators: [withConsole({ path: '/', data: [admin], network: true })],
} satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

/** The four states of a screen, rendered at `path` (inside `route` when the screen reads its id from it). */
function fourStates(
  path: string,
  screen: () => JSX.Element,
  filled: StubRoutes,
  empty: StubRoutes,
  user: readonly [readonly unknown[], unknown] = admin,
) {
  const states = screenStates(filled, empty);
  const decorators = [withConsole({ path, data: [user], network: true })];
  return {
    Filled: { ...states.Filled, decorators, render: screen },
    Empty: { ...states.Empty, decorators, render: screen },
    Loading: { ...states.Loading, decorators, render: screen },
    LoadFailed: { ...states.LoadFailed, decorators, render: screen },
  };
}

const physiciansList = fourStates(
  '/physicians',
  () => <PhysiciansPage />,
  { 'GET /api/physicians': { status: 200, body: physicians } },
  { 'GET /api/physicians': { status: 200, body: [] } },
);
export const Physicians: Story = physiciansList.Filled;
export const PhysiciansEmpty: Story = physiciansList.Empty;
export const PhysiciansLoading: Story = physiciansList.Loading;
export const PhysiciansLoadFailed: Story = physiciansList.LoadFailed;

const physicianDetail = fourStates(
  '/physicians/1',
  () => (
    <Route path="/physicians/:id">
      <PhysicianDetailPage />
    </Route>
  ),
  { 'GET /api/physicians/1': { status: 200, body: physician1 } },
  { 'GET /api/physicians/1': { status: 404, body: { error: 'Physician not found' } } },
);
export const PhysicianDetail: Story = physicianDetail.Filled;
export const PhysicianDetailNotFound: Story = physicianDetail.Empty;
export const PhysicianDetailLoading: Story = physicianDetail.Loading;
export const PhysicianDetailLoadFailed: Story = physicianDetail.LoadFailed;

export const RegisterPhysician: Story = {
  decorators: [withConsole({ path: '/physicians/register', data: [admin], network: true })],
  beforeEach: stubFetch({
    'GET /api/physicians/npi-check': { status: 200, body: { valid: true, taken: false } },
  }),
  render: () => <RegisterPhysicianPage />,
};

const referralRoutes = { 'GET /api/referrals': { status: 200, body: referrals } };
const referralList = fourStates('/referrals', () => <ReferralsPage />, referralRoutes, {
  'GET /api/referrals': { status: 200, body: [] },
});
export const Referrals: Story = referralList.Filled;
export const ReferralsEmpty: Story = referralList.Empty;
export const ReferralsLoading: Story = referralList.Loading;
export const ReferralsLoadFailed: Story = referralList.LoadFailed;

const byPhysician = fourStates(
  '/referrals/physician/1',
  () => (
    <Route path="/referrals/physician/:id">
      <PhysicianReferralsPage />
    </Route>
  ),
  { ...referralRoutes, 'GET /api/physicians/1': { status: 200, body: physician1 } },
  { 'GET /api/referrals': { status: 200, body: [] } },
);
export const ReferralsOfPhysician: Story = byPhysician.Filled;
export const ReferralsOfPhysicianEmpty: Story = byPhysician.Empty;

export const NewReferral: Story = {
  decorators: [withConsole({ path: '/referrals/new', data: [admin], network: true })],
  beforeEach: stubFetch({ 'GET /api/physicians': { status: 200, body: physicians } }),
  render: () => <NewReferralPage />,
  play: () => stubbedCallsSettled(),
};

const sheet = (reply: StubRoutes[string]) => ({
  beforeEach: stubFetch({
    'GET /api/referrals/33': reply,
    'GET /api/referrals/33/patient-matches': { status: 200, body: [] },
  }),
  render: () => <ReferralDetailSheet id={33} onClose={() => {}} />,
  play: () => stubbedCallsSettled(),
});
export const ReferralSheet: Story = sheet({ status: 200, body: referral33 });
export const ReferralSheetLoading: Story = sheet({ network: 'pending' });
export const ReferralSheetLoadFailed: Story = sheet({ status: 500, body: { error: 'Something went wrong' } });

const slaRules = fourStates(
  '/sla/definitions',
  () => <SlaDefinitionsPage />,
  {
    'GET /api/sla/definitions': { status: 200, body: slaDefinitions },
    'GET /api/sla/calendar': { status: 200, body: slaCalendar },
    'GET /api/sla/letterhead': { status: 200, body: slaLetterhead },
  },
  { 'GET /api/sla/definitions': { status: 200, body: [] } },
);
export const SlaDefinitions: Story = slaRules.Filled;
export const SlaDefinitionsEmpty: Story = slaRules.Empty;
export const SlaDefinitionsLoading: Story = slaRules.Loading;
export const SlaDefinitionsLoadFailed: Story = slaRules.LoadFailed;

const slaBoard = fourStates(
  '/sla/dashboard',
  () => <SlaDashboardPage />,
  { 'GET /api/sla/dashboard': { status: 200, body: slaDashboard } },
  {
    'GET /api/sla/dashboard': {
      status: 200,
      body: Object.fromEntries(
        Object.entries(slaDashboard).map(([key, value]) => [key, Array.isArray(value) ? [] : value]),
      ),
    },
  },
);
export const SlaDashboard: Story = slaBoard.Filled;
export const SlaDashboardEmpty: Story = slaBoard.Empty;
export const SlaDashboardLoading: Story = slaBoard.Loading;
export const SlaDashboardLoadFailed: Story = slaBoard.LoadFailed;

const mdBoard = fourStates(
  '/medical-director/dashboard',
  () => <MedicalDirectorDashboardPage />,
  { 'GET /api/medical-director/dashboard': { status: 200, body: mdDashboard } },
  {
    'GET /api/medical-director/dashboard': {
      status: 200,
      body: Object.fromEntries(
        Object.entries(mdDashboard).map(([key, value]) => [key, Array.isArray(value) ? [] : value]),
      ),
    },
  },
  director,
);
export const MedicalDirectorQueue: Story = mdBoard.Filled;
export const MedicalDirectorQueueEmpty: Story = mdBoard.Empty;
export const MedicalDirectorQueueLoading: Story = mdBoard.Loading;
export const MedicalDirectorQueueLoadFailed: Story = mdBoard.LoadFailed;

const assignment = fourStates(
  '/medical-director/test-assignment/33',
  () => (
    <Route path="/medical-director/test-assignment/:id">
      <TestAssignmentPage />
    </Route>
  ),
  { 'GET /api/interpretations/33': { status: 200, body: interpretation33 } },
  { 'GET /api/interpretations/33': { status: 404, body: { error: 'Referral not found' } } },
  director,
);
export const TestAssignment: Story = assignment.Filled;
export const TestAssignmentNotFound: Story = assignment.Empty;
export const TestAssignmentLoading: Story = assignment.Loading;
export const TestAssignmentLoadFailed: Story = assignment.LoadFailed;

const portal = fourStates(
  '/physician-dashboard',
  () => <PhysicianDashboardPage />,
  { 'GET /api/physician-dashboard': { status: 200, body: physicianDashboard } },
  {
    'GET /api/physician-dashboard': {
      status: 200,
      body: Object.fromEntries(
        Object.entries(physicianDashboard).map(([key, value]) => [key, Array.isArray(value) ? [] : value]),
      ),
    },
  },
  [CURRENT_USER_KEY, physicianMe],
);
export const PhysicianPortal: Story = portal.Filled;
export const PhysicianPortalEmpty: Story = portal.Empty;
export const PhysicianPortalLoading: Story = portal.Loading;
export const PhysicianPortalLoadFailed: Story = portal.LoadFailed;
