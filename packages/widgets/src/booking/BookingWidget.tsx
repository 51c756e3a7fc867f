import { CalendarIcon } from '../shared/icons';
import { WIDGET_TAGS } from '../shared/tags';
import { WidgetCard } from '../shared/WidgetCard';
import type { WidgetProps } from '../shared/widgetProps';

export const bookingCopy = {
  title: 'Book a home sleep test',
  description:
    'Choose a 2-day or 3-day test and a start date that suits you. We’ll confirm your booking and have your kit ready to pick up.',
} as const;

/** `<wellrest-booking>`: a patient books a home sleep test. */
export function BookingWidget(props: WidgetProps) {
  return (
    <WidgetCard
      {...props}
      widget={WIDGET_TAGS.booking}
      title={bookingCopy.title}
      description={bookingCopy.description}
      icon={<CalendarIcon />}
    />
  );
}
