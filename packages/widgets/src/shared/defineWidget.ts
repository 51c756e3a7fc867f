import r2wc from '@r2wc/react-to-web-component';
import type { ComponentType } from 'react';
import type { WidgetTag } from './tags';
import { type WidgetProps, widgetPropTypes } from './widgetProps';

/**
 * Registers a widget component as a custom element with an open shadow root. A page may load the
 * same element twice (a single-widget script and `wellrest-widgets.js`, or a script included twice):
 * the first registration wins and the second is a no-op instead of a `NotSupportedError`.
 */
export function defineWidget(
  tag: WidgetTag,
  component: ComponentType<WidgetProps>,
): CustomElementConstructor {
  const registered = customElements.get(tag);
  if (registered) return registered;
  const element = r2wc(component, { shadow: 'open', props: widgetPropTypes });
  customElements.define(tag, element);
  return element;
}

/** An element instance: attributes mirror these properties. */
export type WellrestWidgetElement = HTMLElement & WidgetProps;
