import { createElement } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { useWidgetsScript, type WidgetElementTag } from './widgetScript';

export interface WidgetElementProps {
  tag: WidgetElementTag;
  theme?: string;
  accentColor?: string;
  embedKey?: string;
  apiBase?: string;
}

const SCRIPT_FAILED = 'The form could not be loaded. Please reload the page.';

/** Renders a Wellrest custom element by tag, loading its script first. */
export function WidgetElement({ tag, theme, accentColor, embedKey, apiBase }: WidgetElementProps) {
  const script = useWidgetsScript(tag);
  if (script === 'failed') {
    return (
      <Alert variant="destructive">
        <AlertTitle>{SCRIPT_FAILED}</AlertTitle>
        <AlertDescription />
      </Alert>
    );
  }
  // React 19 sets attributes on custom elements; undefined ones are left out.
  return createElement(tag, {
    theme: theme || undefined,
    'accent-color': accentColor || undefined,
    'embed-key': embedKey || undefined,
    'api-base': apiBase || undefined,
  });
}
