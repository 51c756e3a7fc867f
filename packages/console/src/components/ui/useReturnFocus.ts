import type { Dialog as DialogPrimitive } from 'radix-ui';
import { type ComponentProps, useRef } from 'react';

type ContentProps = ComponentProps<typeof DialogPrimitive.Content>;

/**
 * Returns focus to the control that opened a dialog or sheet when it closes (Escape, Cancel, a
 * completed action), for every way it closes. Radix records the focused element when its focus
 * scope mounts, but a dialog whose content suspends (lazy parts) mounts that scope again once
 * focus is already inside it, and focus then fell to the page body. Here the opener is taken on
 * the first open event only while focus is still outside the dialog, and focused again on close
 * unless the page has already moved the focus somewhere itself.
 */
export function useReturnFocus(props: Pick<ContentProps, 'onOpenAutoFocus' | 'onCloseAutoFocus'>) {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: (event: Event) => {
      const active = document.activeElement;
      const container = event.currentTarget instanceof Node ? event.currentTarget : null;
      if (active instanceof HTMLElement && active !== document.body && !container?.contains(active)) {
        opener.current = active;
      }
      props.onOpenAutoFocus?.(event);
    },
    onCloseAutoFocus: (event: Event) => {
      props.onCloseAutoFocus?.(event);
      const target = opener.current;
      opener.current = null;
      if (event.defaultPrevented) return;
      // The page already put the focus somewhere on purpose as the dialog closed (a scan field
      // taking it back, say): leave it there.
      const active = document.activeElement;
      if (active instanceof HTMLElement && active !== document.body && active.isConnected) {
        event.preventDefault();
        return;
      }
      if (!target?.isConnected) return;
      event.preventDefault();
      target.focus();
    },
  };
}
