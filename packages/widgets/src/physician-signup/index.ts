import { defineWidget, type WellrestWidgetElement } from '../shared/defineWidget';
import { WIDGET_TAGS } from '../shared/tags';
import { PhysicianSignupWidget } from './PhysicianSignupWidget';

export type { WellrestWidgetElement } from '../shared/defineWidget';
export { WIDGET_ERROR_EVENT, WIDGET_READY_EVENT, WIDGET_SUBMITTED_EVENT } from '../shared/events';

export const WellrestPhysicianSignupElement = defineWidget(
  WIDGET_TAGS.physicianSignup,
  PhysicianSignupWidget,
);

declare global {
  interface HTMLElementTagNameMap {
    'wellrest-physician-signup': WellrestWidgetElement;
  }
}
