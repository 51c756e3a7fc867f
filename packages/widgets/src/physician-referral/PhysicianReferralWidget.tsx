import { ClipboardIcon } from '../shared/icons';
import { WIDGET_TAGS } from '../shared/tags';
import { WidgetCard } from '../shared/WidgetCard';
import type { WidgetProps } from '../shared/widgetProps';

export const physicianReferralCopy = {
  title: 'Refer a patient for a sleep test',
  description:
    'Send your patient’s details and the reason for referral. Our team contacts the patient to schedule a home sleep test and keeps you updated.',
} as const;

/** `<wellrest-physician-referral>`: a physician refers a patient. */
export function PhysicianReferralWidget(props: WidgetProps) {
  return (
    <WidgetCard
      {...props}
      widget={WIDGET_TAGS.physicianReferral}
      title={physicianReferralCopy.title}
      description={physicianReferralCopy.description}
      icon={<ClipboardIcon />}
    />
  );
}
