/** Words every widget card uses (core's catalogue); each widget's own title and description live beside it. */
export { widgetMessages as widgetCopy, widgetWarnings } from '@wellrest/core/widgets';
