import { UserPlusIcon } from '../shared/icons';
import { WIDGET_TAGS } from '../shared/tags';
import { WidgetCard } from '../shared/WidgetCard';
import type { WidgetProps } from '../shared/widgetProps';

export const physicianSignupCopy = {
  title: 'Join our referring physicians',
  description:
    'Register your practice to refer patients for home sleep testing and follow every referral from submission to results.',
} as const;

/** `<wellrest-physician-signup>`: a physician registers to refer patients. */
export function PhysicianSignupWidget(props: WidgetProps) {
  return (
    <WidgetCard
      {...props}
      widget={WIDGET_TAGS.physicianSignup}
      title={physicianSignupCopy.title}
      description={physicianSignupCopy.description}
      icon={<UserPlusIcon />}
    />
  );
}
