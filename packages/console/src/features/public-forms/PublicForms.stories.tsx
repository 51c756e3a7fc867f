import type { Meta, StoryObj } from '@storybook/react-vite';
import { publicFormsMessages } from '@wellrest/core';
import { tokenInAddress, withConsole } from '../../../../../.storybook/consoleStory';
import { stubbedCallsSettled, stubFetch } from '../../../../../.storybook/fetchStub';
import AgreementFormPage, { AgreementSuccessPage } from './AgreementFormPage';
import DropoffFormPage, { DropoffSuccessPage } from './DropoffFormPage';
import { BookingWidgetPage, PhysicianReferralWidgetPage, PhysicianSignupWidgetPage } from './WidgetPages';

// The public pages a patient opens from a link: the kit agreement, the drop-off report, and
// their confirmations. No sign-in; the token in the link is the only key.

const agreement = {
  patientName: 'Logan Dummer',
  kitType: 'Somfit',
  kitLabel: 'SOM-001',
  testType: '3-day',
  startDate: '2026-11-26',
  endDate: '2026-11-28',
  returnDate: '2026-11-30',
  terms: [
    'I will use the home sleep-test kit only for my own test, as instructed by the clinic.',
    'I will return the kit, complete and undamaged, by the return date shown above.',
    'I understand that a kit returned late may delay tests for other patients, and that I may be charged for a kit that is lost or damaged.',
    'I will contact the clinic at once if the kit does not work or if I cannot complete the test nights.',
    'I consent to the clinic recording my test data and using it to interpret my sleep study.',
  ],
  status: 'sent',
};
const agreementRoute = 'GET /api/public/agreements/demo-token';
const token = '/agreement-form';

const meta = {
  title: 'Public/Forms',
  parameters: { layout: 'fullscreen' },
} satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

export const Agreement: Story = {
  decorators: [withConsole({ path: token })],
  beforeEach: [
    stubFetch({ [agreementRoute]: { status: 200, body: agreement } }),
    tokenInAddress('demo-token'),
  ],
  render: () => <AgreementFormPage />,
  play: () => stubbedCallsSettled(),
};
export const AgreementLoading: Story = {
  decorators: [withConsole({ path: token })],
  beforeEach: [stubFetch({ [agreementRoute]: { network: 'pending' } }), tokenInAddress('demo-token')],
  render: () => <AgreementFormPage />,
};
export const AgreementLinkUsed: Story = {
  decorators: [withConsole({ path: token })],
  beforeEach: [
    stubFetch({
      [agreementRoute]: { status: 410, body: { error: publicFormsMessages.agreementUsed, reason: 'used' } },
    }),
    tokenInAddress('demo-token'),
  ],
  render: () => <AgreementFormPage />,
  play: () => stubbedCallsSettled(),
};
export const AgreementUnreachable: Story = {
  decorators: [withConsole({ path: token })],
  beforeEach: [stubFetch({ [agreementRoute]: { network: 'error' } }), tokenInAddress('demo-token')],
  render: () => <AgreementFormPage />,
  play: () => stubbedCallsSettled(),
};
export const AgreementNoToken: Story = {
  decorators: [withConsole({ path: '/agreement-form' })],
  render: () => <AgreementFormPage />,
};
export const AgreementSigned: Story = {
  decorators: [withConsole({ path: '/agreement-success' })],
  beforeEach: tokenInAddress('demo-token'),
  render: () => <AgreementSuccessPage />,
};
export const Dropoff: Story = {
  decorators: [withConsole({ path: '/dropoff-form' })],
  beforeEach: tokenInAddress('demo-token'),
  render: () => <DropoffFormPage />,
};
export const DropoffNoToken: Story = {
  decorators: [withConsole({ path: '/dropoff-form' })],
  render: () => <DropoffFormPage />,
};
export const DropoffReported: Story = {
  decorators: [withConsole({ path: '/dropoff-success' })],
  render: () => <DropoffSuccessPage />,
};
/** The full-page widget; here no widget script is served, so the page says it could not load. */
export const BookingWidgetScriptMissing: Story = {
  decorators: [withConsole({ path: '/widget' })],
  render: () => <BookingWidgetPage />,
  play: () => new Promise((resolve) => setTimeout(resolve, 500)),
};
export const ReferralWidgetScriptMissing: Story = {
  decorators: [withConsole({ path: '/physician-widget' })],
  render: () => <PhysicianReferralWidgetPage />,
  play: () => new Promise((resolve) => setTimeout(resolve, 500)),
};
export const SignupWidgetScriptMissing: Story = {
  decorators: [withConsole({ path: '/physician-signup-widget' })],
  render: () => <PhysicianSignupWidgetPage />,
  play: () => new Promise((resolve) => setTimeout(resolve, 500)),
};
