import { defineWidget, type WellrestWidgetElement } from '../shared/defineWidget';
import { WIDGET_TAGS } from '../shared/tags';
import { BookingWidget } from './BookingWidget';

export type { WellrestWidgetElement } from '../shared/defineWidget';
export { WIDGET_ERROR_EVENT, WIDGET_READY_EVENT, WIDGET_SUBMITTED_EVENT } from '../shared/events';

export const WellrestBookingElement = defineWidget(WIDGET_TAGS.booking, BookingWidget);

declare global {
  interface HTMLElementTagNameMap {
    'wellrest-booking': WellrestWidgetElement;
  }
}
