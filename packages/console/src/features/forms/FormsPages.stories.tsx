import type { Meta, StoryObj } from '@storybook/react-vite';
import { type FormDefinition, formsMessages } from '@wellrest/core';
import { Route } from 'wouter';
import { CURRENT_USER_KEY } from '@/lib/queryClient';
import { tokenInAddress, withConsole } from '../../../../../.storybook/consoleStory';
import { authMe, formSubmissions1, formTemplate1, patientsPage } from '../../../../../.storybook/demoData';
import { screenStates, stubbedCallsSettled, stubFetch } from '../../../../../.storybook/fetchStub';
import BuilderPage from './BuilderPage';
import { FormPreview } from './FormPreview';
import { PatientChooser } from './PatientChooser';
import PatientFormPage from './PatientFormPage';
import { PatientSubmissions } from './PatientSubmissions';
import { PropertiesPanel } from './PropertiesPanel';
import SubmitPage from './SubmitPage';

// The e-forms: the builder, filling a form for a patient, the patient's link, and a patient's submissions.

const admin = [CURRENT_USER_KEY, authMe] as const;
const definition = formTemplate1.definition as FormDefinition;
const draft = { ...formTemplate1, status: 'draft', publishedAt: null };
const template = (body: unknown) =>
  screenStates(
    {
      'GET /api/forms/templates/1': { status: 200, body },
      'GET /api/patients': { status: 200, body: patientsPage },
    },
    {},
  );
const published = template(formTemplate1);
const drafted = template(draft);

const meta = {
  title: 'Console/Forms/Pages',
  decorators: [withConsole({ path: '/forms/builder/1', data: [admin], network: true })],
} satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const builder = () => (
  <Route path="/forms/builder/:id">
    <BuilderPage />
  </Route>
);
export const Builder: Story = { ...drafted.Filled, render: builder };
export const BuilderPublished: Story = { ...published.Filled, render: builder };
export const BuilderLoading: Story = { ...drafted.Loading, render: builder };
export const BuilderLoadFailed: Story = { ...drafted.LoadFailed, render: builder };

const submit = () => (
  <Route path="/forms/builder/:id">
    <SubmitPage />
  </Route>
);
export const FillForPatient: Story = { ...published.Filled, render: submit };
export const FillForPatientLoading: Story = { ...published.Loading, render: submit };
export const FillForPatientLoadFailed: Story = { ...published.LoadFailed, render: submit };

export const Preview: Story = { render: () => <FormPreview definition={definition} /> };

export const QuestionProperties: Story = {
  render: () => {
    const fields = definition.sections.flatMap((section) => section.fields);
    const field = fields[1] ?? fields[0];
    if (!field) return <p>No question</p>;
    return (
      <div className="max-w-sm">
        <PropertiesPanel field={field} earlier={fields.slice(0, 1)} onChange={() => {}} onRemove={() => {}} />
      </div>
    );
  },
};

export const ChoosePatient: Story = {
  beforeEach: stubFetch({ 'GET /api/patients': { status: 200, body: patientsPage } }),
  render: () => <PatientChooser onChoose={() => {}} />,
  play: () => stubbedCallsSettled(),
};

const submissions = screenStates(
  { 'GET /api/forms/submissions': { status: 200, body: formSubmissions1 } },
  { 'GET /api/forms/submissions': { status: 200, body: [] } },
);
export const Submissions: Story = {
  ...submissions.Filled,
  render: () => <PatientSubmissions patientId={1} />,
};
export const SubmissionsEmpty: Story = {
  ...submissions.Empty,
  render: () => <PatientSubmissions patientId={1} />,
};
export const SubmissionsLoading: Story = {
  ...submissions.Loading,
  render: () => <PatientSubmissions patientId={1} />,
};
export const SubmissionsLoadFailed: Story = {
  ...submissions.LoadFailed,
  render: () => <PatientSubmissions patientId={1} />,
};

const publicForm = { title: formTemplate1.name, definition, patientFirstName: 'Avery' };
/** The page reads its token from the address bar: the story puts one there while it is shown. */
const patientForm = (reply: Parameters<typeof stubFetch>[0][string]) => ({
  decorators: [withConsole({ path: '/patient-form' })],
  beforeEach: [stubFetch({ 'GET /api/public/forms/demo-token': reply }), tokenInAddress('demo-token')],
  render: () => <PatientFormPage />,
  play: () => stubbedCallsSettled(),
});
export const PatientLink: Story = patientForm({ status: 200, body: publicForm });
export const PatientLinkLoading: Story = patientForm({ network: 'pending' });
export const PatientLinkUsed: Story = patientForm({
  status: 410,
  body: { error: formsMessages.linkUsed, reason: 'used' },
});
export const PatientLinkUnreachable: Story = patientForm({ network: 'error' });
export const PatientLinkMissing: Story = {
  decorators: [withConsole({ path: '/patient-form' })],
  render: () => <PatientFormPage />,
};
