import type { Meta, StoryObj } from '@storybook/react-vite';
import { messagingMessages } from '@wellrest/core';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { INBOX_KEY, type Inbox, UNREAD_KEY } from './api';
import { NotificationBell } from './NotificationBell';

const inbox: Inbox = {
  unread: 2,
  items: [
    {
      id: 3,
      kind: 'booking.return_overdue',
      title: messagingMessages.notifications.overdueReturns(3),
      body: messagingMessages.notifications.overdueReturnsBody,
      link: '/bookings',
      createdAt: '2031-03-05T07:00:00.000Z',
      read: false,
    },
    {
      id: 2,
      kind: 'delivery.failed',
      title: messagingMessages.notifications.deliveryFailed('email'),
      body: messagingMessages.notifications.deliveryFailedBody,
      link: '/notifications',
      createdAt: '2031-03-04T15:30:00.000Z',
      read: false,
    },
    {
      id: 1,
      kind: 'delivery.failed',
      title: messagingMessages.notifications.deliveryFailed('sms'),
      body: null,
      link: null,
      createdAt: '2031-03-01T09:00:00.000Z',
      read: true,
    },
  ],
};

/** The header's bell: unread count, and the latest notifications when opened. */
const meta = {
  title: 'Console/Notifications/NotificationBell',
  component: NotificationBell,
} satisfies Meta<typeof NotificationBell>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Unread: Story = {
  decorators: [
    withConsole({
      data: [
        [UNREAD_KEY, { unread: 2 }],
        [INBOX_KEY, inbox],
      ],
    }),
  ],
};

export const NothingNew: Story = {
  decorators: [
    withConsole({
      data: [
        [UNREAD_KEY, { unread: 0 }],
        [INBOX_KEY, { unread: 0, items: [] }],
      ],
    }),
  ],
};
