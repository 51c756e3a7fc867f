/**
 * Registers all three Wellrest elements: `<wellrest-booking>`, `<wellrest-physician-referral>` and
 * `<wellrest-physician-signup>`.
 */
export { WellrestBookingElement } from './booking/index';
export { WellrestPhysicianReferralElement } from './physician-referral/index';
export { WellrestPhysicianSignupElement } from './physician-signup/index';
export type { WellrestWidgetElement } from './shared/defineWidget';
export {
  type UnreachableReason,
  WIDGET_ERROR_EVENT,
  WIDGET_READY_EVENT,
  WIDGET_SUBMITTED_EVENT,
  type WidgetErrorDetail,
  type WidgetReadyDetail,
  type WidgetSubmittedDetail,
} from './shared/events';
export { WIDGET_TAGS, type WidgetTag } from './shared/tags';
export type { WidgetProps } from './shared/widgetProps';
