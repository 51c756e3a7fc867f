import { useEffect, useState } from 'react';

/** The script with all three elements, as the API serves it (the console never imports the widgets). */
export const WIDGETS_SCRIPT_PATH = '/widgets/wellrest-widgets.js';

export type WidgetElementTag =
  | 'wellrest-booking'
  | 'wellrest-physician-referral'
  | 'wellrest-physician-signup';

type ScriptState = 'loading' | 'ready' | 'failed';

/** Adds the widgets script to the page once and reports when the elements are defined. */
export function useWidgetsScript(tag: WidgetElementTag): ScriptState {
  const [state, setState] = useState<ScriptState>(() => (customElements.get(tag) ? 'ready' : 'loading'));
  useEffect(() => {
    if (customElements.get(tag)) {
      setState('ready');
      return;
    }
    let script = document.querySelector<HTMLScriptElement>(`script[src="${WIDGETS_SCRIPT_PATH}"]`);
    if (!script) {
      script = document.createElement('script');
      script.src = WIDGETS_SCRIPT_PATH;
      script.async = true;
      document.head.append(script);
    }
    const onError = () => setState('failed');
    script.addEventListener('error', onError);
    let cancelled = false;
    customElements.whenDefined(tag).then(() => {
      if (!cancelled) setState('ready');
    });
    return () => {
      cancelled = true;
      script?.removeEventListener('error', onError);
    };
  }, [tag]);
  return state;
}
