import {
  TOAST_DURATION_MS,
  TOAST_HOTKEY,
  TOAST_SWIPE_DIRECTION,
  TOAST_SWIPE_THRESHOLD_PX,
  TOAST_VIEWPORT_MAX_WIDTH_PX,
} from '@wellrest/core';
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from './toast';
import { dismissToast, useToast } from './use-toast';

const hotkey = Array.isArray(TOAST_HOTKEY) ? [...TOAST_HOTKEY] : [TOAST_HOTKEY];

/** Renders the app's toasts (spec §9: duration, swipe right, F8 hotkey, viewport width). */
export function Toaster() {
  const { toasts } = useToast();
  return (
    <ToastProvider
      duration={TOAST_DURATION_MS}
      swipeDirection={TOAST_SWIPE_DIRECTION}
      swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}
    >
      {toasts.map(({ id, title, description, action, variant, open }) => (
        <Toast
          key={id}
          variant={variant}
          open={open}
          onOpenChange={(next) => {
            if (!next) dismissToast(id);
          }}
        >
          <div className="grid gap-1">
            {title && <ToastTitle>{title}</ToastTitle>}
            {description && <ToastDescription>{description}</ToastDescription>}
          </div>
          {action}
          <ToastClose />
        </Toast>
      ))}
      <ToastViewport hotkey={hotkey} style={{ maxWidth: TOAST_VIEWPORT_MAX_WIDTH_PX }} />
    </ToastProvider>
  );
}
