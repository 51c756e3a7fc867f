import type { Meta, StoryObj } from '@storybook/react-vite';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { emptyDraft, TemplateEditor } from './TemplateEditor';

/** The template editor: variable picker, checks as staff type, live preview, SMS length. */
const meta = {
  title: 'Console/Templates/TemplateEditor',
  component: TemplateEditor,
  decorators: [withConsole({ path: '/templates' })],
  args: { isNew: true, saving: false, onSave: () => {}, initial: emptyDraft },
} satisfies Meta<typeof TemplateEditor>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Email: Story = {
  args: {
    initial: {
      ...emptyDraft,
      name: 'Overdue return',
      trigger: 'booking.return_overdue',
      subject: 'Your {{ kit.type }} kit is overdue',
      html: '<p>Hi {{ patient.firstName }}, please return your kit.</p>',
      text: 'Hi {{ patient.firstName }}, please return your kit by {{ booking.returnDate }}.',
    },
  },
};

export const SmsWithSegments: Story = {
  args: {
    initial: {
      ...emptyDraft,
      name: 'Pickup reminder',
      channel: 'sms',
      body: 'Hi {{ patient.firstName }}, your {{ kit.type }} kit is ready on {{ booking.startDate }}. Call {{ practice.phone }} with questions. Reply STOP to opt out. 😴',
    },
  },
};

export const UnknownVariable: Story = {
  args: {
    initial: { ...emptyDraft, name: 'Typo', subject: 'Hello {{ patient.firstname }}', text: 'Hi' },
  },
};
