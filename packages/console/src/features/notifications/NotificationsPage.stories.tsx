import type { Meta, StoryObj } from '@storybook/react-vite';
import { CURRENT_USER_KEY } from '@/lib/queryClient';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { authMe, messagingSettings } from '../../../../../.storybook/demoData';
import { screenStates } from '../../../../../.storybook/fetchStub';
import { DeliveryLog } from './DeliveryLog';
import { MessagingSettingsForm } from './MessagingSettingsForm';
import NotificationsPage from './NotificationsPage';

const inbox = {
  unread: 2,
  items: [
    {
      id: 9,
      kind: 'referral.received',
      title: 'New referral from Dr. Alana Brooks',
      body: 'A routine referral is waiting for first contact.',
      link: '/referrals?referral=12',
      createdAt: '2026-11-26T08:40:00.000Z',
      read: false,
    },
    {
      id: 8,
      kind: 'kit.overdue',
      title: 'SOM-003 is overdue',
      body: 'The kit was due back on Nov 24.',
      link: '/inventory',
      createdAt: '2026-11-25T13:00:00.000Z',
      read: false,
    },
    {
      id: 7,
      kind: 'sla.breached',
      title: 'First-contact target missed',
      body: null,
      link: '/sla/dashboard',
      createdAt: '2026-11-24T17:30:00.000Z',
      read: true,
    },
  ],
};
const deliveries = {
  items: [
    {
      id: 31,
      channel: 'email',
      recipient: 'a•••@example.test',
      status: 'delivered',
      attempts: 1,
      transport: 'smtp',
      providerId: '<demo-31@wellrest.test>',
      errorCode: null,
      containsPhi: true,
      template: { id: 2, name: 'Booking confirmation', version: 3 },
      createdAt: '2026-11-26T08:02:00.000Z',
    },
    {
      id: 30,
      channel: 'sms',
      recipient: '(555) •••-0120',
      status: 'failed',
      attempts: 3,
      transport: 'sms',
      providerId: null,
      errorCode: 'unreachable',
      containsPhi: false,
      template: { id: 4, name: 'Pickup reminder', version: 1 },
      createdAt: '2026-11-25T15:10:00.000Z',
    },
    {
      id: 29,
      channel: 'email',
      recipient: 'b•••@example.test',
      status: 'queued',
      attempts: 0,
      transport: null,
      providerId: null,
      errorCode: null,
      containsPhi: false,
      template: null,
      createdAt: '2026-11-25T15:09:00.000Z',
    },
  ],
};
const settings = {
  ...messagingSettings,
  smtpHost: 'smtp.wellrest.test',
  smtpUser: 'notifications',
  fromAddress: 'Wellrest Sleep <noreply@wellrest.test>',
  smtpPasswordSet: true,
};
const states = screenStates(
  {
    'GET /api/notifications': { status: 200, body: inbox },
    'GET /api/notifications/unread-count': { status: 200, body: { unread: 2 } },
    'GET /api/deliveries': { status: 200, body: deliveries },
    'GET /api/messaging/settings': { status: 200, body: settings },
  },
  {
    'GET /api/notifications': { status: 200, body: { items: [], unread: 0 } },
    'GET /api/deliveries': { status: 200, body: { items: [] } },
    'GET /api/messaging/settings': { status: 200, body: messagingSettings },
  },
);

/** /notifications: the inbox, the delivery log of emails and texts, and the messaging settings. */
const meta = {
  title: 'Console/Notifications',
  decorators: [withConsole({ path: '/notifications', data: [[CURRENT_USER_KEY, authMe]], network: true })],
} satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

export const Inbox: Story = { ...states.Filled, render: () => <NotificationsPage /> };
export const InboxEmpty: Story = { ...states.Empty, render: () => <NotificationsPage /> };
export const InboxLoading: Story = { ...states.Loading, render: () => <NotificationsPage /> };
export const InboxLoadFailed: Story = { ...states.LoadFailed, render: () => <NotificationsPage /> };
export const Deliveries: Story = { ...states.Filled, render: () => <DeliveryLog /> };
export const DeliveriesEmpty: Story = { ...states.Empty, render: () => <DeliveryLog /> };
export const DeliveriesLoadFailed: Story = { ...states.LoadFailed, render: () => <DeliveryLog /> };
export const MessagingSettings: Story = { ...states.Filled, render: () => <MessagingSettingsForm /> };
export const MessagingSettingsNotSetUp: Story = { ...states.Empty, render: () => <MessagingSettingsForm /> };
export const MessagingSettingsLoading: Story = { ...states.Loading, render: () => <MessagingSettingsForm /> };
export const MessagingSettingsLoadFailed: Story = {
  ...states.LoadFailed,
  render: () => <MessagingSettingsForm />,
};
