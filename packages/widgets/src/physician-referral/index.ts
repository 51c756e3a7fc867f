import { defineWidget, type WellrestWidgetElement } from '../shared/defineWidget';
import { WIDGET_TAGS } from '../shared/tags';
import { PhysicianReferralWidget } from './PhysicianReferralWidget';

export type { WellrestWidgetElement } from '../shared/defineWidget';
export { WIDGET_ERROR_EVENT, WIDGET_READY_EVENT, WIDGET_SUBMITTED_EVENT } from '../shared/events';

export const WellrestPhysicianReferralElement = defineWidget(
  WIDGET_TAGS.physicianReferral,
  PhysicianReferralWidget,
);

declare global {
  interface HTMLElementTagNameMap {
    'wellrest-physician-referral': WellrestWidgetElement;
  }
}
