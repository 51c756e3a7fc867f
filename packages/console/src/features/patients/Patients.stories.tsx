import type { Meta, StoryObj } from '@storybook/react-vite';
import { CURRENT_USER_KEY } from '@/lib/queryClient';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { authMe, patient21, patientBookings, patientsPage } from '../../../../../.storybook/demoData';
import {
  type StubRoutes,
  screenStates,
  stubbedCallsSettled,
  stubFetch,
} from '../../../../../.storybook/fetchStub';
import { PatientFormDialog } from './PatientFormDialog';
import { PatientPanel } from './PatientPanel';
import PatientsPage from './PatientsPage';

// /patients, the patient panel and the patient form, with synthetic demo patients.

const admin = [CURRENT_USER_KEY, authMe] as const;
const states = screenStates(
  { 'GET /api/patients': { status: 200, body: patientsPage } },
  { 'GET /api/patients': { status: 200, body: { ...patientsPage, items: [], total: 0 } } },
);

const meta = {
  title: 'Console/Patients',
  decorators: [withConsole({ path: '/patients', data: [admin], network: true })],
} satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

export const List: Story = { ...states.Filled, render: () => <PatientsPage /> };
export const ListEmpty: Story = { ...states.Empty, render: () => <PatientsPage /> };
export const ListLoading: Story = { ...states.Loading, render: () => <PatientsPage /> };
export const ListLoadFailed: Story = { ...states.LoadFailed, render: () => <PatientsPage /> };

const panel = (patient: StubRoutes[string], bookings: StubRoutes[string]) => ({
  beforeEach: stubFetch({ 'GET /api/patients/21': patient, 'GET /api/bookings': bookings }),
  render: () => <PatientPanel patientId={21} onClose={() => {}} onEdit={() => {}} showGhl />,
  play: () => stubbedCallsSettled(),
});
export const Panel: Story = panel({ status: 200, body: patient21 }, { status: 200, body: patientBookings });
export const PanelNoBookings: Story = panel(
  { status: 200, body: patient21 },
  { status: 200, body: { ...patientBookings, items: [], total: 0 } },
);
export const PanelLoading: Story = panel({ network: 'pending' }, { network: 'pending' });
export const PanelLoadFailed: Story = panel(
  { status: 500, body: { error: 'Something went wrong' } },
  { status: 500, body: { error: 'Something went wrong' } },
);

export const NewPatientDialog: Story = {
  render: () => <PatientFormDialog open patient={null} onOpenChange={() => {}} />,
};
export const EditPatientDialog: Story = {
  beforeEach: stubFetch({ 'GET /api/patients/duplicates': { status: 200, body: [] } }),
  render: () => <PatientFormDialog open patient={patient21 as never} onOpenChange={() => {}} />,
  play: () => stubbedCallsSettled(),
};
